import { method } from '../method.ts';

/** rpc_modules: the enabled modules (README "Module switches"), worked out once from the switches. */
export const rpcModule = (enabled: Readonly<Record<string, string>>) => ({
  rpc_modules: method([], () => enabled),
});

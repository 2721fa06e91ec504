import { method } from '../method.ts';

/** rpc_modules: the enabled modules (rpc-methods.md §4.4), worked out once from the switches. */
export const rpcModule = (enabled: Readonly<Record<string, string>>) => ({
  rpc_modules: method([], () => enabled),
});

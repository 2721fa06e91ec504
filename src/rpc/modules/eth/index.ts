import type { RpcDeps } from '../../deps.ts';
import { ethBlockMethods } from './blocks.ts';
import { ethBridgeMethods } from './bridge.ts';
import { ethCallMethods } from './calls.ts';
import { ethMiningMethods } from './mining.ts';
import { ethNodeMethods } from './node.ts';
import { ethStateMethods } from './state.ts';

export const ethModule = (deps: RpcDeps) => ({
  ...ethNodeMethods(deps),
  ...ethStateMethods(deps),
  ...ethBlockMethods(deps),
  ...ethCallMethods(deps),
  ...ethMiningMethods(deps),
  ...ethBridgeMethods(deps),
});

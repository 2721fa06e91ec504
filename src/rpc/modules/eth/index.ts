import type { RpcDeps } from '../../deps.ts';
import { ethBlockMethods } from './blocks.ts';
import { ethBridgeMethods } from './bridge.ts';
import { ethCallMethods, ethSendMethods } from './calls.ts';
import { ethFeeMethods } from './fees.ts';
import { ethFilterMethods } from './filters.ts';
import { ethLogMethods } from './logs.ts';
import { ethMiningMethods } from './mining.ts';
import { ethNodeMethods } from './node.ts';
import { ethStateMethods } from './state.ts';
import { ethWalletMethods } from './wallet.ts';

export const ethModule = (deps: RpcDeps) => ({
  ...ethNodeMethods(deps),
  ...ethFeeMethods(deps),
  ...ethStateMethods(deps),
  ...ethBlockMethods(deps),
  ...ethCallMethods(deps),
  ...ethSendMethods(deps),
  ...ethLogMethods(deps),
  ...ethFilterMethods(deps),
  ...(deps.wallet ? ethWalletMethods(deps.wallet, deps) : {}),
  ...ethMiningMethods(deps),
  ...ethBridgeMethods(deps),
});

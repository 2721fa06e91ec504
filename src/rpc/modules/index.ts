/** The method table: one module per namespace, switched on and off by configuration. */
import type { RpcDeps } from '../deps.ts';
import { ImpersonatedAccounts } from '../impersonation.ts';
import type { Methods } from '../method.ts';
import { withRevertCode } from '../revertCode.ts';
import { applySwitches } from '../method.ts';
import { enabledModules, type RpcSwitches } from '../switches.ts';
import { chainModule } from './chain.ts';
import { debugModule } from './debug.ts';
import { ethModule } from './eth/index.ts';
import { evmModule, evmModuleOff } from './evm.ts';
import { mnrModule } from './mnr.ts';
import { netModule } from './net.ts';
import { personalModule } from './personal.ts';
import { rpcModule } from './rpc.ts';
import { scoModule } from './sco.ts';
import { traceModule } from './trace.ts';
import { txpoolModule } from './txpool.ts';
import { unsupportedMethods } from './unsupported.ts';
import { walletDisabledMethods } from './walletDisabled.ts';
import { web3Module } from './web3.ts';
import { onWorkers } from './workerMethods.ts';

export function buildMethods(nodeDeps: RpcDeps, switches: RpcSwitches): Methods {
  // One set of impersonated accounts, changed by the evm controls and read by eth_sendTransaction.
  const impersonated = nodeDeps.devControlsOff ? undefined : new ImpersonatedAccounts();
  const deps = { ...nodeDeps, impersonated };
  const served: Methods = {
    ...web3Module(deps),
    ...netModule(deps),
    ...ethModule(deps),
    ...(deps.wallet ? personalModule(deps.wallet, deps) : walletDisabledMethods()),
    ...txpoolModule(deps),
    ...(impersonated ? evmModule({ ...deps, impersonated }) : evmModuleOff(deps, deps.devControlsOff!)),
    ...mnrModule(deps),
    ...debugModule(deps),
    ...traceModule(deps),
    ...chainModule(deps),
    ...scoModule(deps),
  };
  // Reverts are reworded after the workers answered: they run eth_call and eth_estimateGas.
  const dispatched = withRevertCode(onWorkers(served, deps.workers, deps.pending, deps.mainThreadCalls), deps.revertCode ?? -32015);
  const withRpc = { ...dispatched, ...rpcModule(enabledModules([...Object.keys(served), 'rpc_modules'], switches)) };
  // Unsupported groups are not switchable: whatever the configuration, they say why they are not served.
  return { ...applySwitches(withRpc, switches), ...unsupportedMethods() };
}

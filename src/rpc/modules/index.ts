/** The method table: one module per namespace. */
import type { RpcDeps } from '../deps.ts';
import type { Methods } from '../method.ts';
import { ethModule } from './eth/index.ts';
import { mnrModule } from './mnr.ts';
import { netModule } from './net.ts';
import { web3Module } from './web3.ts';

export const buildMethods = (deps: RpcDeps): Methods => ({
  ...web3Module(deps),
  ...netModule(deps),
  ...ethModule(deps),
  ...mnrModule(deps),
});

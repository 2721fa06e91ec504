import type { RpcDeps } from '../deps.ts';
import { method } from '../method.ts';

/** Until the p2p layer exists this node has no peers and no p2p listener. */
export const netModule = (deps: Pick<RpcDeps, 'reader'>) => ({
  net_version: method([], () => deps.reader.network.chainId.toString(10)),
  net_listening: method([], () => false),
  net_peerCount: method([], () => '0x0'),
  net_peerList: method([], () => []),
});

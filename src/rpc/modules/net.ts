import { quantity } from '../../chain/codec/bytes.ts';
import type { RpcDeps } from '../deps.ts';
import { method } from '../method.ts';

export const netModule = (deps: Pick<RpcDeps, 'reader' | 'peers'>) => ({
  net_version: method([], () => deps.reader.network.chainId.toString(10)),
  /** Whether the p2p host is listening. */
  net_listening: method([], async () => (await deps.peers.ask('p2p.info', {})).listening),
  /** Connected peers that completed the status handshake. */
  net_peerCount: method([], async () => quantity((await deps.peers.ask('peers.list', {})).length)),
  /** "<short peer id> | <host>:<port>" per connected peer. */
  net_peerList: method([], async () => (await deps.peers.ask('peers.list', {})).map((p) => `${p.id.slice(-8)} | ${p.host}:${p.port}`)),
});

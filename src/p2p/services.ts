/**
 * What a node offers its peers on a new host: the request/response protocols it serves and the gossip
 * topics it validates. The composition root (src/node.ts) supplies the chain and pool access.
 */
import type { ChainView } from '../chain/reader.ts';
import { blockValidator, type BlockGossipDeps } from './gossip/blocks.ts';
import type { Topics } from './gossip/topics.ts';
import { txValidator, type TxGossipDeps } from './gossip/txs.ts';
import { serveBlocksByHash } from './reqresp/blocksByHash.ts';
import { serveBlocksByRange } from './reqresp/blocksByRange.ts';
import { servePooledTxs } from './reqresp/pooledTxs.ts';
import { serveStatus, type Status } from './reqresp/status.ts';
import type { P2P, PeerIdStr } from './types.ts';

export interface ServiceDeps extends Omit<BlockGossipDeps, 'reader'>, Omit<TxGossipDeps, 'common'> {
  readonly reader: ChainView;
  readonly topics: Topics;
  ourStatus(): Status;
  /** A peer's status, asked by it in its handshake. */
  onStatus(peer: PeerIdStr, status: Status): void;
  /** The pool's transactions, raw. */
  pooledTxs(): Promise<Uint8Array[]>;
}

/** Returns the transaction validator, which also takes the pools of new peers (takePooledTxs). */
export async function offerServices(p2p: P2P, deps: ServiceDeps): Promise<{ validateTx: (from: PeerIdStr, raw: Uint8Array) => Promise<unknown> }> {
  await serveStatus(p2p, deps.ourStatus, deps.onStatus);
  await serveBlocksByRange(p2p, deps.reader);
  await serveBlocksByHash(p2p, deps.reader);
  await servePooledTxs(p2p, deps.pooledTxs);
  p2p.onGossip(deps.topics.blocks, blockValidator(deps));
  const validateTx = txValidator({ ...deps, common: deps.reader.common });
  p2p.onGossip(deps.topics.txs, validateTx);
  return { validateTx };
}

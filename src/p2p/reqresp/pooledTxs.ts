/**
 * A new peer's pool: asked once per connection, so transactions sent to a node while it had no
 * peers (gossiped to nobody) still spread. Empty request; raw signed transactions out.
 */
import { RLP } from '@ethereumjs/rlp';
import { fitResponse, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES } from '../limits.ts';
import type { PeerEvent } from '../peerEvents.ts';
import { MalformedResponseError } from '../errors.ts';
import type { P2P, PeerIdStr } from '../types.ts';
import { ask } from './ask.ts';

export const POOLED_TXS_PROTOCOL = '/mmnode/req/pooled_txs/1';
/** Transactions one response may carry. */
export const MAX_POOLED_TXS = 4_096;

/** Raw signed transactions (typed ones are not RLP lists themselves), each as an RLP byte string. */
export const encodeTxList = (txs: Uint8Array[]): Uint8Array => RLP.encode(txs);
export function decodeTxList(raw: Uint8Array): Uint8Array[] {
  const list = RLP.decode(raw) as unknown;
  if (!Array.isArray(list) || list.length > MAX_POOLED_TXS || list.some((x) => !(x instanceof Uint8Array))) throw new Error('malformed transaction list');
  return list as Uint8Array[];
}

export const servePooledTxs = (p2p: P2P, pooled: () => Promise<Uint8Array[]>) =>
  p2p.serve(POOLED_TXS_PROTOCOL, MAX_REQUEST_BYTES, async () => encodeTxList(fitResponse((await pooled()).slice(0, MAX_POOLED_TXS))));

/** Asks a new peer for its pool and takes each transaction as if gossiped (same checks, same penalties). */
export async function takePooledTxs(
  p2p: P2P, peer: PeerIdStr, validate: (from: PeerIdStr, raw: Uint8Array) => Promise<unknown>, report: (peer: PeerIdStr, event: PeerEvent) => void,
): Promise<void> {
  let raws: Uint8Array[];
  try {
    raws = await ask(p2p, peer, POOLED_TXS_PROTOCOL, new Uint8Array(), MAX_RESPONSE_BYTES, decodeTxList);
  } catch (err) {
    if (err instanceof MalformedResponseError) report(peer, 'invalidMessages');
    return; // a peer gone or slow: its transactions come by gossip, or not at all
  }
  for (const raw of raws) await validate(peer, raw);
}

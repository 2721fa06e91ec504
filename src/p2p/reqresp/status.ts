/**
 * The status handshake, asked by each side once a connection opens: chain id, genesis, head and
 * total difficulty. A peer of another chain is refused; a heavier one is a sync target.
 */
import { RLP } from '@ethereumjs/rlp';
import { toBig, uintBytes } from '../../chain/codec/bytes.ts';
import { MAX_REQUEST_BYTES } from '../limits.ts';
import type { P2P, PeerIdStr } from '../types.ts';
import { ask } from './ask.ts';

export const STATUS_PROTOCOL = '/mmnode/req/status/1';

export interface Status {
  readonly chainId: bigint;
  readonly genesisHash: Uint8Array;
  readonly headHash: Uint8Array;
  readonly headNumber: bigint;
  readonly totalDifficulty: bigint;
}

export const encodeStatus = (s: Status): Uint8Array =>
  RLP.encode([uintBytes(s.chainId), s.genesisHash, s.headHash, uintBytes(s.headNumber), uintBytes(s.totalDifficulty)]);

export function decodeStatus(raw: Uint8Array): Status {
  const f = RLP.decode(raw) as Uint8Array[];
  if (!Array.isArray(f) || f.length !== 5 || f.some((x) => !(x instanceof Uint8Array)) || f[1]!.length !== 32 || f[2]!.length !== 32) {
    throw new Error('malformed status message');
  }
  return { chainId: toBig(f[0]!), genesisHash: f[1]!, headHash: f[2]!, headNumber: toBig(f[3]!), totalDifficulty: toBig(f[4]!) };
}

/** Answers with our status and hands the peer's to `onStatus`. */
export const serveStatus = (p2p: P2P, ours: () => Status, onStatus: (peer: PeerIdStr, theirs: Status) => void) =>
  p2p.serve(STATUS_PROTOCOL, MAX_REQUEST_BYTES, async (req, from) => {
    onStatus(from, decodeStatus(req));
    return encodeStatus(ours());
  });

export const requestStatus = (p2p: P2P, peer: PeerIdStr, ours: Status): Promise<Status> =>
  ask(p2p, peer, STATUS_PROTOCOL, encodeStatus(ours), MAX_REQUEST_BYTES, decodeStatus);

/** The asking side of the request/response protocols. */
import { MalformedResponseError } from '../errors.ts';
import type { P2P, PeerIdStr } from '../types.ts';

/** Asks `peer` and decodes its answer; an answer that does not decode rejects with MalformedResponseError. */
export async function ask<T>(
  p2p: P2P, peer: PeerIdStr, protocol: string, req: Uint8Array, maxResponseBytes: number, decode: (raw: Uint8Array) => T,
): Promise<T> {
  const raw = await p2p.request(peer, protocol, req, maxResponseBytes);
  try {
    return decode(raw);
  } catch (err) {
    throw new MalformedResponseError(protocol, err);
  }
}

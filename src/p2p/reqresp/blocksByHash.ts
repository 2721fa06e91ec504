/** Blocks by hash (any this node stores, canonical or not): a list of hashes in, the blocks it has, in order until the first missing one, out. */
import { RLP } from '@ethereumjs/rlp';
import type { ChainView } from '../../chain/reader.ts';
import { fitResponse, MAX_REQUEST_BYTES } from '../limits.ts';
import type { P2P } from '../types.ts';
import { encodeBlockList, MAX_BLOCKS_PER_REQUEST } from './blocksByRange.ts';

export const BLOCKS_BY_HASH_PROTOCOL = '/mmnode/req/blocks_by_hash/1';

export function decodeHashRequest(raw: Uint8Array): Uint8Array[] {
  const f = RLP.decode(raw) as Uint8Array[];
  if (!Array.isArray(f) || f.length > MAX_BLOCKS_PER_REQUEST || f.some((x) => !(x instanceof Uint8Array) || x.length !== 32)) {
    throw new Error('malformed block-hash request');
  }
  return f;
}

export const serveBlocksByHash = (p2p: P2P, reader: ChainView) =>
  p2p.serve(BLOCKS_BY_HASH_PROTOCOL, MAX_REQUEST_BYTES, async (req) => encodeBlockList(fitResponse(await reader.rawBlocks(decodeHashRequest(req)))));

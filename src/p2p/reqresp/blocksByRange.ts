/** Canonical blocks by number, for block sync: [start, count] in, the blocks this node has from start on out. */
import { RLP } from '@ethereumjs/rlp';
import { concatBytes } from '@ethereumjs/util';
import { rlpListPrefix } from '../../chain/codec/rlp.ts';
import { toBig, uintBytes } from '../../chain/codec/bytes.ts';
import type { ChainView } from '../../chain/reader.ts';
import { fitResponse, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES } from '../limits.ts';
import type { P2P, PeerIdStr } from '../types.ts';
import { ask } from './ask.ts';

export const BLOCKS_BY_RANGE_PROTOCOL = '/mmnode/req/blocks_by_range/1';
/** Most blocks one request may ask for (also for blocks by hash). */
export const MAX_BLOCKS_PER_REQUEST = 256;

export const encodeRangeRequest = (start: bigint, count: number) => RLP.encode([uintBytes(start), uintBytes(count)]);

export function decodeRangeRequest(raw: Uint8Array): { start: bigint; count: number } {
  const f = RLP.decode(raw) as Uint8Array[];
  if (!Array.isArray(f) || f.length !== 2 || f.some((x) => !(x instanceof Uint8Array))) throw new Error('malformed range request');
  const count = Number(toBig(f[1]!));
  if (count < 1 || count > MAX_BLOCKS_PER_REQUEST) throw new Error(`range request for ${count} blocks (1..${MAX_BLOCKS_PER_REQUEST})`);
  return { start: toBig(f[0]!), count };
}

/** A list of encoded blocks (each the RLP of src/chain/codec/block.ts encodeBlock), framed as one RLP list without re-encoding them. */
export const encodeBlockList = (blocks: Uint8Array[]): Uint8Array =>
  concatBytes(rlpListPrefix(blocks.reduce((n, b) => n + b.length, 0)), ...blocks);

/** The blocks of a block list, each as its decoded RLP (src/chain/codec/block.ts blockFromFields takes it from there). */
export function decodeBlockList(raw: Uint8Array): unknown[] {
  const list = RLP.decode(raw) as unknown;
  if (!Array.isArray(list)) throw new Error('malformed block list');
  return list;
}

export const serveBlocksByRange = (p2p: P2P, reader: ChainView) =>
  p2p.serve(BLOCKS_BY_RANGE_PROTOCOL, MAX_REQUEST_BYTES, async (req) => {
    const { start, count } = decodeRangeRequest(req);
    return encodeBlockList(fitResponse(await reader.rawBlocks(await reader.canonicalHashes(start, count))));
  });

export const requestBlocksByRange = (p2p: P2P, peer: PeerIdStr, start: bigint, count: number): Promise<unknown[]> =>
  ask(p2p, peer, BLOCKS_BY_RANGE_PROTOCOL, encodeRangeRequest(start, count), MAX_RESPONSE_BYTES, decodeBlockList);

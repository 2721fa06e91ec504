/**
 * Wire names and payloads. Gossip topics are scoped by network and genesis hash, so nodes of
 * another chain never share a mesh; request/response protocols carry RLP payloads, length-prefixed.
 * Bump a version whenever its wire format changes.
 */
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { rlpListPrefix } from '../chain/block.ts';
import { toBig, uintBytes } from '../chain/bytes.ts';

export const STATUS_PROTOCOL = '/mmnode/req/status/1';
export const BLOCKS_BY_RANGE_PROTOCOL = '/mmnode/req/blocks_by_range/1';
export const BLOCKS_BY_HASH_PROTOCOL = '/mmnode/req/blocks_by_hash/1';
/** A new peer's pool: asked once per connection, so transactions sent while nobody listened still spread. */
export const POOLED_TXS_PROTOCOL = '/mmnode/req/pooled_txs/1';

/** Largest gossip message and request/response payloads. */
export const MAX_GOSSIP_BYTES = 4 * 1024 * 1024;
export const MAX_REQUEST_BYTES = 64 * 1024;
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Most blocks one range or hash request may ask for. */
export const MAX_BLOCKS_PER_REQUEST = 256;
/** Transactions a pooled-transactions response may carry. */
export const MAX_POOLED_TXS = 4_096;

export function gossipTopics(network: string, genesisHash: Uint8Array) {
  const scope = `/mmnode/${network}/${bytesToHex(genesisHash).slice(2, 18)}`;
  return { blocks: `${scope}/blocks/1`, txs: `${scope}/txs/1` };
}

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

export const encodeRangeRequest = (start: bigint, count: number) => RLP.encode([uintBytes(start), uintBytes(count)]);

export function decodeRangeRequest(raw: Uint8Array): { start: bigint; count: number } {
  const f = RLP.decode(raw) as Uint8Array[];
  if (!Array.isArray(f) || f.length !== 2 || f.some((x) => !(x instanceof Uint8Array))) throw new Error('malformed range request');
  const count = Number(toBig(f[1]!));
  if (count < 1 || count > MAX_BLOCKS_PER_REQUEST) throw new Error(`range request for ${count} blocks (1..${MAX_BLOCKS_PER_REQUEST})`);
  return { start: toBig(f[0]!), count };
}

export const encodeHashRequest = (hashes: Uint8Array[]) => RLP.encode(hashes);

export function decodeHashRequest(raw: Uint8Array): Uint8Array[] {
  const f = RLP.decode(raw) as Uint8Array[];
  if (!Array.isArray(f) || f.length > MAX_BLOCKS_PER_REQUEST || f.some((x) => !(x instanceof Uint8Array) || x.length !== 32)) {
    throw new Error('malformed block-hash request');
  }
  return f;
}

/** A list of encoded blocks (each the RLP of src/chain/block.ts encodeBlock), framed as one RLP list without re-encoding them. */
export const encodeBlockList = (blocks: Uint8Array[]): Uint8Array =>
  concatBytes(rlpListPrefix(blocks.reduce((n, b) => n + b.length, 0)), ...blocks);
/** The blocks of a block list, each as its decoded RLP (src/chain/block.ts blockFromFields takes it from there). */
export function decodeBlockList(raw: Uint8Array): unknown[] {
  const list = RLP.decode(raw) as unknown;
  if (!Array.isArray(list)) throw new Error('malformed block list');
  return list;
}

/** Raw signed transactions (typed ones are not RLP lists themselves), each as an RLP byte string. */
export const encodeTxList = (txs: Uint8Array[]): Uint8Array => RLP.encode(txs);
export function decodeTxList(raw: Uint8Array): Uint8Array[] {
  const list = RLP.decode(raw) as unknown;
  if (!Array.isArray(list) || list.length > MAX_POOLED_TXS || list.some((x) => !(x instanceof Uint8Array))) throw new Error('malformed transaction list');
  return list as Uint8Array[];
}

/**
 * The log index: the logs of each canonical block, plus which logs come from an address or carry
 * a topic at a position. It lives in the `logs` sublevel and is written in the very batch that
 * moves the canonical chain (import, reorg, rewind), so a crash or a reorg can never leave it out
 * of step with the chain.
 *
 *   0x00 | number (8)                   → text: the block hash, then a line per log:
 *                                          `<tx index> <tx hash> <address> <data> <topic> …`
 *                                          (blocks with logs only; line k + 1 is the log of index k)
 *   0x01 | address (20) | number (8)    → number (8), then the indexes (4 bytes each, ascending) of the
 *                                          block's logs from this address (the number again: a reader of
 *                                          values alone needs no keys)
 *   0x1p | topic (32) | number (8)      → number (8), then the indexes of the block's logs with this topic at position p (0…3)
 *
 * Numbers are big-endian, so keys sort in chain order and a block range is one key range. Logs are
 * kept as on the wire (lowercase hex), so answering converts nothing. One record per block keeps a
 * scan of a range short; an address or topic has one key per block, and its log indexes make
 * intersections exact. src/chain/logs/logQuery.ts reads it.
 */
import { concatBytes } from '@ethereumjs/util';
import type { Block } from '../codec/block.ts';
import { be64, fromHex, hex, toBig, uintBytes, type Hex } from '../codec/bytes.ts';
import type { StoredReceipt } from '../codec/block.ts';
import { blockLogEntries, type LogEntry } from './logFilter.ts';
import type { BatchOp, BytesSublevel, ChainStore } from '../storage/store.ts';

const RECORD = 0x00;
export const ADDRESS = 0x01;
export const TOPIC = 0x10;

/** `meta` key holding the index format once every canonical block is indexed in it (written with genesis, or after a rebuild). */
const INDEXED = new TextEncoder().encode('logindex');
/** 1: the first layout (a key per log); 2: a key per address or topic and block. */
const FORMAT_VERSION = new Uint8Array([2]);
/**
 * `meta` key counting the changes that removed entries (reorgs, rewinds). Until it moves, what the
 * index holds for a block number stays as it is, so readers may keep what they read of it.
 */
const GENERATION = new TextEncoder().encode('logindex.generation');

/**
 * The generation each store's writer last moved the index to: the chain writer, alone in writing it, reads it
 * once (a rewind or reorg then costs no read). A batch that failed leaves it one ahead, so it still moves.
 */
const writtenGenerations = new WeakMap<ChainStore, bigint>();

export async function indexGeneration(store: ChainStore): Promise<bigint> {
  const raw = await store.meta.get(GENERATION);
  return raw ? toBig(raw) : 0n;
}

/** The prefix of the address or topic keys of `value` under `kind`. */
export const keyPrefix = (kind: number, value: Uint8Array): Uint8Array => concatBytes(new Uint8Array([kind]), value);
/** A key: a prefix (a record's, or an address's or topic's), then the block number. */
export const blockKey = (prefix: Uint8Array, n: bigint): Uint8Array => concatBytes(prefix, be64(n));
export const recordKey = (n: bigint): Uint8Array => blockKey(Uint8Array.of(RECORD), n);

function blockOps(sublevel: BytesSublevel, block: Block, receipts: readonly StoredReceipt[], type: 'put' | 'del'): BatchOp[] {
  const n = block.header.number;
  const logs = blockLogEntries(block, receipts);
  if (logs.length === 0) return [];
  // Log indexes by key, in ascending order (logs are visited in order).
  const entries = new Map<string, { kind: number; value: Hex; indexes: number[] }>();
  const add = (kind: number, value: Hex, logIndex: number) => {
    const id = `${kind}${value}`;
    const entry = entries.get(id) ?? entries.set(id, { kind, value, indexes: [] }).get(id)!;
    entry.indexes.push(logIndex);
  };
  for (const log of logs) {
    add(ADDRESS, log.address, log.logIndex);
    log.topics.forEach((t, p) => add(TOPIC + p, t, log.logIndex));
  }
  const keyed = [...entries.values()].map((e) => ({ key: blockKey(keyPrefix(e.kind, fromHex(e.value)), n), indexes: e.indexes }));
  if (type === 'del') return [recordKey(n), ...keyed.map((e) => e.key)].map((key) => ({ type, sublevel, key }));
  // Plain lines rather than JSON: splitting them is cheaper than parsing, and the parts are substrings.
  const lines = [hex(block.hash), ...logs.map((l) => [l.txIndex, l.txHash, l.address, l.data, ...l.topics].join(' '))];
  return [
    { type, sublevel, key: recordKey(n), value: new TextEncoder().encode(lines.join('\n')) },
    ...keyed.map(({ key, indexes }): BatchOp => ({ type, sublevel, key, value: concatBytes(be64(n), uint32s(indexes)) })),
  ];
}

/** Big-endian 32-bit words, written byte by byte (a DataView would move a short array's bytes out of the heap, docs/performance.md "Short byte strings"). */
function uint32s(values: readonly number[]): Uint8Array {
  const out = new Uint8Array(4 * values.length);
  values.forEach((v, i) => {
    out[4 * i] = v >>> 24;
    out[4 * i + 1] = v >>> 16;
    out[4 * i + 2] = v >>> 8;
    out[4 * i + 3] = v;
  });
  return out;
}

function logOfLine(blockHash: Hex, blockNumber: bigint, logIndex: number, line: string): LogEntry {
  const [txIndex, txHash, address, data, ...topics] = line.split(' ') as Hex[];
  return { blockHash, blockNumber, txHash: txHash!, txIndex: Number(txIndex), logIndex, address: address!, topics, data: data! };
}

/** Every log of block `n` from its record (ASCII: latin1 is the cheapest way to read it). */
export function recordLogs(n: bigint, record: Buffer): LogEntry[] {
  const [blockHash, ...lines] = record.toString('latin1').split('\n') as Hex[];
  return lines.map((line, logIndex) => logOfLine(blockHash!, n, logIndex, line));
}

/**
 * Index operations for a change of the canonical chain: the entries of blocks that left it are
 * deleted first, then those of blocks that joined it are put (a key both have at the same number
 * therefore stays). `receiptsOf` must still find the receipts of removed blocks.
 */
export async function logIndexOps(
  store: ChainStore,
  change: { readonly added: readonly Block[]; readonly removed: readonly Block[] },
  receiptsOf: (block: Block) => Promise<readonly StoredReceipt[] | undefined> | readonly StoredReceipt[],
): Promise<BatchOp[]> {
  const receipts = async (b: Block) => {
    const r = await receiptsOf(b);
    if (!r) throw new Error(`store is corrupt: receipts of block ${b.header.number} missing`);
    return r;
  };
  const ops: BatchOp[] = [];
  if (change.removed.length) {
    const generation = (writtenGenerations.get(store) ?? (await indexGeneration(store))) + 1n;
    writtenGenerations.set(store, generation);
    ops.push({ type: 'put', sublevel: store.meta, key: GENERATION, value: uintBytes(generation) });
  }
  // A block without transactions has no logs: its receipts (none) need no read.
  for (const b of change.removed) if (b.txs.length) ops.push(...blockOps(store.logs, b, await receipts(b), 'del'));
  for (const b of change.added) if (b.txs.length) ops.push(...blockOps(store.logs, b, await receipts(b), 'put'));
  return ops;
}

/** The op that marks a store as fully indexed; part of the genesis batch. */
export const indexedMarkerOp = (store: ChainStore): BatchOp => ({ type: 'put', sublevel: store.meta, key: INDEXED, value: FORMAT_VERSION });

/**
 * Indexes the canonical chain of a store written before the index existed, or in an older format
 * (once: the marker is written last, so a crash midway only means starting over at the next start).
 */
export async function ensureLogIndex(reader: {
  readonly store: ChainStore;
  head(): { readonly number: bigint };
  canonicalBlock(number: bigint): Promise<Block | undefined>;
  getReceipts(blockHash: Uint8Array): Promise<StoredReceipt[] | undefined>;
}): Promise<void> {
  const store = reader.store;
  const marker = await store.meta.get(INDEXED);
  if (marker?.length === 1 && marker[0] === FORMAT_VERSION[0]) return;
  await store.logs.clear();
  const head = reader.head().number;
  let ops: BatchOp[] = [];
  for (let n = 1n; n <= head; n++) {
    const block = await reader.canonicalBlock(n);
    if (!block) throw new Error(`store is corrupt: canonical block ${n} missing`);
    ops.push(...await logIndexOps(store, { added: [block], removed: [] }, (b) => reader.getReceipts(b.hash)));
    if (ops.length >= 10_000) {
      await store.batch(ops);
      ops = [];
    }
  }
  await store.batch([...ops, indexedMarkerOp(store)]);
}

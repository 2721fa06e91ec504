/**
 * The log index: the logs of each canonical block, plus which logs come from an address or carry
 * a topic at a position. It lives in the `logs` sublevel and is written in the very batch that
 * moves the canonical chain (import, reorg, rewind), so a crash or a reorg can never leave it out
 * of step with the chain.
 *
 *   0x00 | number (8)                                 → text: the block hash, then a line per log:
 *                                                        `<tx index> <tx hash> <address> <data> <topic> …`
 *                                                        (blocks with logs only; line k + 1 is the log of index k)
 *   0x01 | address (20) | number (8) | log index (4)  → ''   the log comes from this address
 *   0x1p | topic (32) | number (8) | log index (4)    → ''   the log has this topic at position p (0…3)
 *
 * Numbers are big-endian, so keys sort in chain order and a block range is one key range. Logs are
 * kept as on the wire (lowercase hex), so answering converts nothing. One record per block keeps a
 * scan of a range short; the address and topic keys name single logs, so intersecting them is exact.
 * src/chain/logQuery.ts reads it.
 */
import { concatBytes } from '@ethereumjs/util';
import type { Block } from './block.ts';
import { be64, EMPTY, fromHex, hex, type Hex } from './bytes.ts';
import type { StoredReceipt } from './execution.ts';
import { blockLogEntries, type LogEntry } from './logFilter.ts';
import type { ChainReader } from './reader.ts';
import type { BatchOp, BytesSublevel, ChainStore } from './store.ts';

export const RECORD = 0x00;
export const ADDRESS = 0x01;
export const TOPIC = 0x10;

/** Bytes of the position (block number, log index) that ends every address and topic key. */
export const POSITION_BYTES = 12;
const LAST_LOG_INDEX = 0xffff_ffff;

/** `meta` key present once every canonical block is indexed (written with genesis, or after a backfill). */
const INDEXED = new TextEncoder().encode('logindex');
const FORMAT_VERSION = new Uint8Array([1]);

const be32 = (i: number): Uint8Array => {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, i);
  return out;
};

/** The prefix of the address or topic keys of `value` under `kind`. */
export const keyPrefix = (kind: number, value: Uint8Array): Uint8Array => concatBytes(new Uint8Array([kind]), value);
/** An address or topic key: prefix, then the log's position. */
const positionKey = (prefix: Uint8Array, n: bigint, logIndex: number): Uint8Array => concatBytes(prefix, be64(n), be32(logIndex));
/** The first and last keys of block range from…to under an address or topic prefix. */
export const positionRange = (prefix: Uint8Array, from: bigint, to: bigint) =>
  ({ gte: positionKey(prefix, from, 0), lte: positionKey(prefix, to, LAST_LOG_INDEX) });
export const recordKey = (n: bigint): Uint8Array => concatBytes(new Uint8Array([RECORD]), be64(n));
/** The block number at the end of a record key. */
export const numberOfRecordKey = (key: Uint8Array): bigint => new DataView(key.buffer, key.byteOffset + 1, 8).getBigUint64(0);


function blockOps(sublevel: BytesSublevel, block: Block, receipts: readonly StoredReceipt[], type: 'put' | 'del'): BatchOp[] {
  const n = block.header.number;
  const logs = blockLogEntries(block, receipts);
  if (logs.length === 0) return [];
  const keys = [recordKey(n)];
  for (const log of logs) {
    keys.push(positionKey(keyPrefix(ADDRESS, fromHex(log.address)), n, log.logIndex));
    log.topics.forEach((t, p) => keys.push(positionKey(keyPrefix(TOPIC + p, fromHex(t)), n, log.logIndex)));
  }
  if (type === 'del') return keys.map((key) => ({ type, sublevel, key }));
  // Plain lines rather than JSON: a query splits out only the logs it needs, as substrings.
  const lines = [hex(block.hash), ...logs.map((l) => [l.txIndex, l.txHash, l.address, l.data, ...l.topics].join(' '))];
  const value = new TextEncoder().encode(lines.join('\n'));
  return keys.map((key, i) => ({ type, sublevel, key, value: i === 0 ? value : EMPTY }));
}

function logOfLine(blockHash: Hex, blockNumber: bigint, logIndex: number, line: string): LogEntry {
  const [txIndex, txHash, address, data, ...topics] = line.split(' ') as Hex[];
  return { blockHash, blockNumber, txHash: txHash!, txIndex: Number(txIndex), logIndex, address: address!, topics, data: data! };
}

/** Every log of a block record (read as utf8 text). */
export function recordLogs(n: bigint, text: string): LogEntry[] {
  const [blockHash, ...lines] = text.split('\n') as Hex[];
  return lines.map((line, logIndex) => logOfLine(blockHash!, n, logIndex, line));
}

/** One log of a block record (read as utf8 text), found without splitting the others. */
export function recordLog(n: bigint, text: string, logIndex: number): LogEntry {
  let start = text.indexOf('\n') + 1;
  for (let i = 0; i < logIndex; i++) start = text.indexOf('\n', start) + 1;
  const end = text.indexOf('\n', start);
  return logOfLine(text.slice(0, 66) as Hex, n, logIndex, text.slice(start, end < 0 ? text.length : end));
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
  for (const b of change.removed) ops.push(...blockOps(store.logs, b, await receipts(b), 'del'));
  for (const b of change.added) ops.push(...blockOps(store.logs, b, await receipts(b), 'put'));
  return ops;
}

/** The op that marks a store as fully indexed; part of the genesis batch. */
export const indexedMarkerOp = (store: ChainStore): BatchOp => ({ type: 'put', sublevel: store.meta, key: INDEXED, value: FORMAT_VERSION });

/**
 * Indexes the canonical chain of a store written before the index existed (once: the marker is
 * written last, and re-indexing a block only rewrites the same keys, so a crash midway is harmless).
 */
export async function ensureLogIndex(reader: ChainReader): Promise<void> {
  const store = reader.store;
  if (await store.meta.get(INDEXED)) return;
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

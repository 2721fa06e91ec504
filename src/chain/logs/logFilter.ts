/**
 * Log filter criteria and matching (README "Logs, filters and WebSocket"), pure and without I/O:
 * one address or many, topics by position with `null` as a wildcard and alternatives as OR, extra
 * log topics beyond the filter's length always match. Also the bloom pre-check of a block.
 */
import { Bloom } from '@ethereumjs/vm';
import type { Block } from '../codec/block.ts';
import { fromHex, hex, type Hex } from '../codec/bytes.ts';
import type { StoredReceipt } from '../codec/block.ts';

/** The most topics a log has (LOG0…LOG4), hence the most positions a filter may constrain. */
export const MAX_TOPIC_POSITIONS = 4;

/** Values are lowercase hex, as logs are kept (the wire form: matching and answering need no conversion). */
export interface LogCriteria {
  /** Any of these addresses; empty: any address. */
  readonly addresses: readonly Hex[];
  /** Per position, the alternatives (OR, never empty); null: any topic. A log needs a topic at every constrained position. */
  readonly topics: readonly (readonly Hex[] | null)[];
}

export const ANY_LOG: LogCriteria = Object.freeze({ addresses: [], topics: [] });

/** A log with its position on the chain, hex in lowercase: what every log answer is made from. */
export interface LogEntry {
  readonly blockHash: Hex;
  readonly blockNumber: bigint;
  readonly txHash: Hex;
  readonly txIndex: number;
  /** Position in the block, counting the logs of every transaction before it. */
  readonly logIndex: number;
  readonly address: Hex;
  readonly topics: readonly Hex[];
  readonly data: Hex;
  /** A log of the pending block (not mined yet): on the wire its position fields are null (docs/rpc-conformance.md, "Pending logs"). */
  readonly pending?: true;
}

const includes = (set: readonly Hex[], value: Hex | undefined) => value !== undefined && set.includes(value);

export function matchesLog(c: LogCriteria, address: Hex, topics: readonly Hex[]): boolean {
  if (c.addresses.length > 0 && !includes(c.addresses, address)) return false;
  for (let i = 0; i < c.topics.length; i++) {
    const alternatives = c.topics[i];
    if (alternatives && !includes(alternatives, topics[i])) return false;
  }
  return true;
}

/**
 * Whether a block (or receipt) bloom may hold a matching log: false means certainly not, so the
 * block's receipts need not be read. Blooms do not record positions, so true is only a maybe.
 */
export function bloomMayMatch(bloomBits: Uint8Array, c: LogCriteria): boolean {
  if (bloomBits.every((b) => b === 0)) return false; // no logs at all
  const bloom = new Bloom(bloomBits);
  const anyOf = (set: readonly Hex[]) => set.some((v) => bloom.check(fromHex(v)));
  if (c.addresses.length > 0 && !anyOf(c.addresses)) return false;
  return c.topics.every((alternatives) => !alternatives || anyOf(alternatives));
}

/** Every log of a block with its position, in chain order. */
export function blockLogEntries(block: Block, receipts: readonly StoredReceipt[]): LogEntry[] {
  const out: LogEntry[] = [];
  receipts.forEach((_, txIndex) => pushTxLogs(out, block, receipts, txIndex, out.length));
  return out;
}

/**
 * The logs of the block's transaction at `txIndex`, with their positions in the block: a receipt
 * formats its own logs only, not every log of its block (docs/performance.md, "What was cut").
 */
export function txLogEntries(block: Block, receipts: readonly StoredReceipt[], txIndex: number): LogEntry[] {
  let firstLogIndex = 0;
  for (let i = 0; i < txIndex; i++) firstLogIndex += receipts[i]!.logs.length;
  return pushTxLogs([], block, receipts, txIndex, firstLogIndex);
}

function pushTxLogs(out: LogEntry[], block: Block, receipts: readonly StoredReceipt[], txIndex: number, firstLogIndex: number): LogEntry[] {
  const logs = receipts[txIndex]!.logs;
  if (logs.length === 0) return out;
  const blockHash = hex(block.hash);
  const txHash = hex(block.txs[txIndex]!.hash());
  logs.forEach(([address, topics, data], i) => {
    out.push({
      blockHash, blockNumber: block.header.number, txHash, txIndex, logIndex: firstLogIndex + i,
      address: hex(address), topics: topics.map(hex), data: hex(data),
    });
  });
  return out;
}

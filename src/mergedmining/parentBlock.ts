/** A full parent-chain (Bitcoin) block: 80-byte header, CompactSize tx count, transactions. */
import { concatBytes } from '@ethereumjs/util';
import { ByteReader, varint } from './codec.js';
import { PARENT_HEADER_BYTES, parseParentHeader, serializeParentHeader, type ParentHeader } from './parentHeader.js';
import { readParentTx, serializeParentTx, type ParentTx } from './parentTx.js';

/** A decoded parent-chain block; `txs[0]` is the coinbase. */
export interface ParentBlock {
  header: ParentHeader;
  txs: ParentTx[];
}

/**
 * Decodes a whole block. Throws on truncation, on a block without transactions, and on bytes left
 * after the last transaction.
 */
export function parseParentBlock(bytes: Uint8Array): ParentBlock {
  if (bytes.length < PARENT_HEADER_BYTES) throw new Error(`truncated parent block: ${bytes.length} bytes, header needs 80`);
  const header = parseParentHeader(bytes.subarray(0, PARENT_HEADER_BYTES));
  const r = new ByteReader(bytes, PARENT_HEADER_BYTES);
  const count = r.count('block tx count');
  if (count === 0) throw new Error('parent block has no transactions');
  const txs: ParentTx[] = [];
  for (let i = 0; i < count; i++) txs.push(readParentTx(r));
  if (r.remaining !== 0) throw new Error(`${r.remaining} trailing bytes after the last transaction of the parent block`);
  return { header, txs };
}

/** Wire bytes of a block; transactions in witness form when they carry witness data (as blocks do). */
export function serializeParentBlock(block: ParentBlock): Uint8Array {
  return concatBytes(
    serializeParentHeader(block.header),
    varint(block.txs.length),
    ...block.txs.map((tx) => serializeParentTx(tx, { witness: true })),
  );
}

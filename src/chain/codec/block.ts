/** A block (header, transactions, uncles) and the storage codecs of bodies and receipts. */
import type { Common } from '@ethereumjs/common';
import { RLP } from '@ethereumjs/rlp';
import type { TypedTransaction } from '@ethereumjs/tx';
import { concatBytes } from '@ethereumjs/util';
import { EMPTY, rlpListPayload, toBig, uintBytes } from './bytes.ts';
import { decodeHeaderFields, fullFields, headerHash, type BlockHeader } from './header.ts';
import { encodeRlp, rlpListPrefix } from './rlp.ts';
import { txBytes, txFromBytes } from './txEncoding.ts';

/** A log as stored: [address, topics, data]. */
export type StoredLog = [Uint8Array, Uint8Array[], Uint8Array];

export interface StoredReceipt {
  readonly status: 0 | 1;
  readonly cumulativeGasUsed: bigint;
  readonly gasUsed: bigint;
  readonly logs: readonly StoredLog[];
  readonly bloom: Uint8Array;
  readonly contractAddress?: Uint8Array;
  readonly txType: number;
}

export interface Block {
  readonly header: BlockHeader;
  readonly hash: Uint8Array;
  readonly txs: readonly TypedTransaction[];
  readonly uncles: readonly BlockHeader[];
}

export function makeBlock(header: BlockHeader, txs: readonly TypedTransaction[], uncles: readonly BlockHeader[] = []): Block {
  return Object.freeze({ header, hash: headerHash(header), txs, uncles });
}

/** What a block adds to its parent's total difficulty: its own difficulty and its uncles'. */
export const blockWork = (b: Pick<Block, 'header' | 'uncles'>): bigint => b.header.difficulty + b.uncles.reduce((sum, u) => sum + u.difficulty, 0n);

export const encodeBody = (b: Pick<Block, 'txs' | 'uncles'>): Uint8Array =>
  encodeRlp([b.txs.map(txBytes), b.uncles.map(fullFields)]);

export function decodeBody(raw: Uint8Array, common: Common): { txs: TypedTransaction[]; uncles: BlockHeader[] } {
  const [txs, uncles] = RLP.decode(raw) as unknown as [Uint8Array[], Uint8Array[][]];
  return {
    // Stored transactions were validated on import: skip re-validation but keep the decoded sender cache lazy.
    txs: txs.map((t) => txFromBytes(t, common)),
    uncles: uncles.map(decodeHeaderFields),
  };
}

/** Full block RLP: [header fields, transactions, uncles] (network and chain_* raw form). */
export const encodeBlock = (b: Block): Uint8Array =>
  encodeRlp([fullFields(b.header), b.txs.map(txBytes), b.uncles.map(fullFields)]);

/** encodeBlock of a stored block, framed from its stored header and body RLP without decoding either. */
export function storedBlockEncoding(header: Uint8Array, body: Uint8Array): Uint8Array {
  // The body is RLP [transactions, uncles]: its payload is those two lists encoded, as a block carries them.
  const payload = rlpListPayload(body);
  return concatBytes(rlpListPrefix(header.length + payload.length), header, payload);
}

export const decodeBlock = (raw: Uint8Array, common: Common): Block => blockFromFields(RLP.decode(raw), common);

/** A block from its decoded RLP (an item of a block list decoded in one go); throws if malformed. */
export function blockFromFields(fields: unknown, common: Common): Block {
  const [h, txs, uncles] = (Array.isArray(fields) ? fields : []) as [Uint8Array[], Uint8Array[], Uint8Array[][]];
  if (!Array.isArray(h) || !Array.isArray(txs) || !Array.isArray(uncles)) throw new Error('block must be [header, transactions, uncles]');
  return makeBlock(decodeHeaderFields(h), txs.map((t) => txFromBytes(t, common)), uncles.map(decodeHeaderFields));
}

export const encodeReceipts = (receipts: readonly StoredReceipt[]): Uint8Array =>
  encodeRlp(receipts.map((r) => [
    uintBytes(r.txType), uintBytes(r.status), uintBytes(r.cumulativeGasUsed), uintBytes(r.gasUsed), r.bloom,
    r.logs, r.contractAddress ?? EMPTY,
  ]));

export function decodeReceipts(raw: Uint8Array): StoredReceipt[] {
  return (RLP.decode(raw) as unknown as Uint8Array[][]).map((f) => {
    const [type, status, cumulative, gasUsed, bloom, logs, contract] = f as unknown as
      [Uint8Array, Uint8Array, Uint8Array, Uint8Array, Uint8Array, StoredLog[], Uint8Array];
    return Object.freeze({
      txType: Number(toBig(type)), status: Number(toBig(status)) as 0 | 1, cumulativeGasUsed: toBig(cumulative),
      gasUsed: toBig(gasUsed), bloom, logs, contractAddress: contract.length ? contract : undefined,
    });
  });
}

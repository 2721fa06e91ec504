/**
 * The block header of this chain and its three encodings (docs/chain.md "Header", docs/merged-mining.md "hashForMergedMining"):
 * - full: every field plus the three merged-mining fields (storage, network, uncle lists);
 * - hashing: fields 1–17 plus the parent-chain header (RSKIP92: coinbase and proof excluded) → block hash;
 * - merged-mining: fields 1–17 only → base of hashForMergedMining.
 * Header version 0: field 7 is the 256-byte logs bloom. `ummRoot` (field 17) is always present and empty.
 */
import { RLP } from '@ethereumjs/rlp';
import { concatBytes } from '@ethereumjs/util';
import { EMPTY, keccak256, rlpListPayload, signedBytes, toBig, uintBytes } from './bytes.ts';
import { encodeRlp, rlpListPrefix } from './rlp.ts';

export interface BlockHeader {
  readonly parentHash: Uint8Array;
  readonly unclesHash: Uint8Array;
  readonly coinbase: Uint8Array;
  readonly stateRoot: Uint8Array;
  readonly transactionsRoot: Uint8Array;
  readonly receiptsRoot: Uint8Array;
  readonly logsBloom: Uint8Array;
  readonly difficulty: bigint;
  readonly number: bigint;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly timestamp: bigint;
  readonly extraData: Uint8Array;
  readonly paidFees: bigint;
  readonly minimumGasPrice: bigint;
  readonly uncleCount: number;
  readonly ummRoot: Uint8Array;
  /** 80-byte parent-chain header whose double SHA-256 meets this block's target. */
  readonly parentChainHeader: Uint8Array;
  /** RSKIP92 Merkle proof: sibling hashes in display order, leaf level first. */
  readonly parentChainMerkleProof: Uint8Array;
  /** Compressed coinbase: 8-byte count, SHA-256 midstate, tail (docs/merged-mining.md "Compressed coinbase"). */
  readonly parentChainCoinbase: Uint8Array;
}

function baseFields(h: BlockHeader): Uint8Array[] {
  return [
    h.parentHash, h.unclesHash, h.coinbase, h.stateRoot, h.transactionsRoot, h.receiptsRoot, h.logsBloom,
    signedBytes(h.difficulty), uintBytes(h.number), signedBytes(h.gasLimit), uintBytes(h.gasUsed),
    uintBytes(h.timestamp), h.extraData, uintBytes(h.paidFees), signedBytes(h.minimumGasPrice),
    uintBytes(h.uncleCount), h.ummRoot,
  ];
}

/**
 * The RLP list of the 17 base fields, by header. A header is frozen, and each of its three encodings
 * starts with these fields: a block imported from a peer is hashed, checked against its proof and
 * stored from one encoding of them.
 */
const encodedBases = new WeakMap<BlockHeader, Uint8Array>();

function encodedBase(h: BlockHeader): Uint8Array {
  let list = encodedBases.get(h);
  if (!list) encodedBases.set(h, (list = encodeRlp(baseFields(h))));
  return list;
}

/** The base fields followed by `more`, as one RLP list. */
function withBase(h: BlockHeader, more: readonly Uint8Array[]): Uint8Array {
  const base = rlpListPayload(encodedBase(h));
  const items = more.map((item) => encodeRlp(item));
  return concatBytes(rlpListPrefix(items.reduce((n, item) => n + item.length, base.length)), base, ...items);
}

/** keccak256 of the 17 base fields: hashForMergedMining before fork-detection data. */
export const mergedMiningBaseHash = (h: BlockHeader): Uint8Array => keccak256(encodedBase(h));

/** The header RLP whose keccak256 is the block hash (what chain_getRawBlockHeaderBy* returns). */
export const encodeHashingHeader = (h: BlockHeader): Uint8Array => withBase(h, [h.parentChainHeader]);

export const headerHash = (h: BlockHeader): Uint8Array => keccak256(encodeHashingHeader(h));

export const encodeFullHeader = (h: BlockHeader): Uint8Array => withBase(h, [h.parentChainHeader, h.parentChainMerkleProof, h.parentChainCoinbase]);

export const fullFields = (h: BlockHeader): Uint8Array[] =>
  [...baseFields(h), h.parentChainHeader, h.parentChainMerkleProof, h.parentChainCoinbase];

export function decodeHeaderFields(f: Uint8Array[]): BlockHeader {
  if (f.length !== 20 || f.some((x) => !(x instanceof Uint8Array))) throw new Error(`header must be a list of 20 byte strings, got ${f.length}`);
  const [parentHash, unclesHash, coinbase, stateRoot, transactionsRoot, receiptsRoot, logsBloom, difficulty, number,
    gasLimit, gasUsed, timestamp, extraData, paidFees, minimumGasPrice, uncleCount, ummRoot,
    parentChainHeader, parentChainMerkleProof, parentChainCoinbase] = f as Uint8Array[] & { length: 20 };
  const sizes: [Uint8Array, number, string][] = [[parentHash!, 32, 'parentHash'], [unclesHash!, 32, 'unclesHash'],
    [stateRoot!, 32, 'stateRoot'], [transactionsRoot!, 32, 'transactionsRoot'], [receiptsRoot!, 32, 'receiptsRoot'],
    [logsBloom!, 256, 'logsBloom']];
  for (const [v, n, name] of sizes) if (v.length !== n) throw new Error(`header ${name} must be ${n} bytes`);
  if (coinbase!.length !== 20 && coinbase!.length !== 0) throw new Error('header coinbase must be 20 bytes');
  if (extraData!.length > 32) throw new Error('header extraData is longer than 32 bytes');
  return Object.freeze({
    parentHash: parentHash!, unclesHash: unclesHash!, coinbase: coinbase!.length ? coinbase! : new Uint8Array(20),
    stateRoot: stateRoot!, transactionsRoot: transactionsRoot!, receiptsRoot: receiptsRoot!, logsBloom: logsBloom!,
    difficulty: toBig(difficulty!), number: toBig(number!), gasLimit: toBig(gasLimit!), gasUsed: toBig(gasUsed!),
    timestamp: toBig(timestamp!), extraData: extraData!, paidFees: toBig(paidFees!),
    minimumGasPrice: toBig(minimumGasPrice!), uncleCount: Number(toBig(uncleCount!)), ummRoot: ummRoot!,
    parentChainHeader: parentChainHeader!, parentChainMerkleProof: parentChainMerkleProof!,
    parentChainCoinbase: parentChainCoinbase!,
  });
}

export const decodeFullHeader = (raw: Uint8Array): BlockHeader => decodeHeaderFields(RLP.decode(raw) as Uint8Array[]);

/** keccak256(RLP([])): the uncles hash of a block without uncles. */
export const EMPTY_UNCLES_HASH = keccak256(RLP.encode([]));
export const unclesHashOf = (uncles: readonly BlockHeader[]): Uint8Array =>
  uncles.length === 0 ? EMPTY_UNCLES_HASH : keccak256(encodeRlp(uncles.map(fullFields)));

export const NO_SEAL = { parentChainHeader: EMPTY, parentChainMerkleProof: EMPTY, parentChainCoinbase: EMPTY };

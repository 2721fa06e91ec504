/**
 * The three submission forms of docs/merged-mining.md "Submissions", each turned into the same solution: the
 * 80-byte parent header, the full (non-witness) coinbase, and the RSKIP92 proof of the coinbase.
 */
import { dsha256, reverseBytes } from './hash.js';
import { merkleRoot, rskip92Proof, rskip92ProofFromBranch } from './merkle.js';
import { parseParentBlock, serializeParentBlock, type ParentBlock } from './parentBlock.js';
import { PARENT_HEADER_BYTES, serializeParentHeader, type ParentHeader } from './parentHeader.js';
import { parentTxid, parseParentTx, serializeParentTx } from './parentTx.js';
import { buildTaggedCoinbase } from './coinbase.js';
import { SEAL_HEADER_BITS, SEAL_HEADER_VERSION } from './seal.js';

/** A solution to merged-mining work, whatever form it was submitted in. */
export interface ParentSolution {
  /** 80-byte parent-chain header. */
  readonly header: Uint8Array;
  /** Coinbase in standard (non-witness) serialization. */
  readonly coinbase: Uint8Array;
  /** RSKIP92 proof: sibling hashes in display order, leaf level first. */
  readonly proof: Uint8Array;
}

/** `mnr_submitBitcoinBlock`: a whole serialized parent block; the proof is built from all its transactions. */
export function solutionFromParentBlock(blockBytes: Uint8Array): ParentSolution {
  const block = parseParentBlock(blockBytes);
  const txids = block.txs.map((tx) => parentTxid(tx));
  return {
    header: blockBytes.subarray(0, PARENT_HEADER_BYTES),
    coinbase: serializeParentTx(block.txs[0]!, { witness: false }),
    proof: rskip92Proof(txids, 0),
  };
}

/** A header given as a longer value is read as a block and only its header kept. */
const headerOf = (headerBytes: Uint8Array): Uint8Array => {
  if (headerBytes.length < PARENT_HEADER_BYTES) throw new Error(`parent header must be 80 bytes, got ${headerBytes.length}`);
  return headerBytes.subarray(0, PARENT_HEADER_BYTES);
};

/** The coinbase as submitted, re-serialized without witness data (the txid commits to that form). */
const nonWitnessCoinbase = (coinbaseBytes: Uint8Array): Uint8Array => {
  const { tx, size } = parseParentTx(coinbaseBytes);
  if (size !== coinbaseBytes.length) throw new Error(`${coinbaseBytes.length - size} trailing bytes after the coinbase transaction`);
  return serializeParentTx(tx, { witness: false });
};

/** `mnr_submitBitcoinBlockTransactions`: every txid of the block in display order, coinbase first. */
export function solutionFromTransactions(headerBytes: Uint8Array, coinbaseBytes: Uint8Array, txidsDisplay: Uint8Array[]): ParentSolution {
  if (txidsDisplay.length === 0) throw new Error('the list of transaction hashes is empty: it must start with the coinbase txid');
  return {
    header: headerOf(headerBytes),
    coinbase: nonWitnessCoinbase(coinbaseBytes),
    proof: rskip92Proof(txidsDisplay.map(reverseBytes), 0),
  };
}

/**
 * `mnr_submitBitcoinBlockPartialMerkle`: the coinbase txid then its siblings bottom-up, raw order.
 * The first hash is skipped, as the reference does (the coinbase itself is hashed instead).
 */
export function solutionFromPartialMerkle(headerBytes: Uint8Array, coinbaseBytes: Uint8Array, merkleHashesRaw: Uint8Array[]): ParentSolution {
  if (merkleHashesRaw.length === 0) throw new Error("The list of merkle hashes can't be empty");
  return {
    header: headerOf(headerBytes),
    coinbase: nonWitnessCoinbase(coinbaseBytes),
    proof: rskip92ProofFromBranch(merkleHashesRaw.slice(1)),
  };
}

/** A parent block to be completed by a nonce: what the node hands to eth_getWork miners. */
export interface ParentBlockTemplate {
  readonly header: ParentHeader;
  readonly coinbase: Uint8Array;
  readonly txids: Uint8Array[];
}

/** A one-transaction parent block committing to `hashForMergedMining`, nonce 0. */
export function parentBlockTemplate(hashForMergedMining: Uint8Array, time: number, extraNonce = 0): ParentBlockTemplate {
  const scriptSig = new Uint8Array(8);
  new DataView(scriptSig.buffer).setUint32(4, extraNonce >>> 0);
  scriptSig[0] = 7; // push the next 7 bytes: an extranonce keeps templates of equal work distinct
  const coinbase = buildTaggedCoinbase(hashForMergedMining, { scriptSig });
  // Built without witness data: the bytes are their own txid preimage (no parse and re-serialization).
  const txids = [dsha256(coinbase)];
  return {
    header: { version: SEAL_HEADER_VERSION, prevHash: new Uint8Array(32), merkleRoot: merkleRoot(txids), time, bits: SEAL_HEADER_BITS, nonce: 0 },
    coinbase,
    txids,
  };
}

/**
 * The solution of a template solved with `nonce`, as `solutionFromParentBlock` reads it from the
 * template's block (`parentBlockBytes`), without serializing that block and parsing it back: the
 * built-in miner's and `eth_submitWork`'s submissions (docs/performance.md, "What was cut").
 */
export const templateSolution = (t: ParentBlockTemplate, nonce: number): ParentSolution => ({
  header: serializeParentHeader({ ...t.header, nonce }),
  coinbase: t.coinbase,
  proof: rskip92Proof(t.txids, 0),
});

/** The serialized block of a solved template (coinbase only). */
export const parentBlockBytes = (t: ParentBlockTemplate, nonce: number): Uint8Array =>
  serializeParentBlock({ header: { ...t.header, nonce }, txs: [parseParentTx(t.coinbase).tx] } satisfies ParentBlock);


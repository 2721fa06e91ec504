/** Producing a merged-mining seal locally (the node's built-in miner, regtest/dev difficulties). */
import { compressCoinbase } from './compressedCoinbase.js';
import { buildTaggedCoinbase } from './coinbase.js';
import { merkleRoot, rskip92Proof } from './merkle.js';
import { serializeParentHeader, type ParentHeader } from './parentHeader.js';
import { parentTxid } from './parentTx.js';
import { meetsTarget, targetFromDifficulty } from './target.js';

/** Version field of locally built parent headers (BIP9 top bits). */
export const SEAL_HEADER_VERSION = 0x20000000;
/** Bits field of locally built parent headers: the parent regtest maximum target (not checked). */
export const SEAL_HEADER_BITS = 0x207fffff;

const NONCE_SPACE = 2 ** 32;

/**
 * `template` with the first nonce, counting up from template.nonce, whose header hash is ≤ target;
 * undefined after `maxTries` failures or when the 32-bit nonce space runs out.
 */
export function solveParentHeader(template: ParentHeader, target: bigint, maxTries = NONCE_SPACE): ParentHeader | undefined {
  const bytes = serializeParentHeader(template);
  const view = new DataView(bytes.buffer);
  const tries = Math.min(maxTries, NONCE_SPACE - template.nonce);
  for (let i = 0; i < tries; i++) {
    const nonce = template.nonce + i;
    view.setUint32(76, nonce, true);
    if (meetsTarget(bytes, target)) return { ...template, nonce };
  }
  return undefined;
}

/** The three merged-mining fields of a sealed sidechain header, plus the uncompressed coinbase. */
export interface MergedMiningSeal {
  /** Parent-chain header, 80 bytes, meeting the target. */
  header: Uint8Array;
  /** Compressed coinbase. */
  coinbase: Uint8Array;
  /** RSKIP92 proof (display-order siblings); empty when there are no other txids. */
  proof: Uint8Array;
  /** The coinbase in standard (non-witness) serialization. */
  fullCoinbase: Uint8Array;
}

/** Options of buildMergedMiningSeal. */
export interface SealOptions {
  /** Parent header time, unix seconds; default now. */
  time?: number;
  /** Txids (raw order) placed after the coinbase in the parent block. */
  otherTxids?: Uint8Array[];
  /** Nonces to try before giving up (throws); default the whole 32-bit space. */
  maxTries?: number;
}

/**
 * Mines a parent-chain header committing to `hashForMergedMining`: tagged coinbase, Merkle root over
 * the coinbase and `otherTxids`, prev hash zero, version 0x20000000, bits 0x207fffff, nonce counted
 * up from 0 until the hash meets the target of `difficulty`. Meant for small difficulties (expected
 * tries ≈ max(difficulty, 3)).
 */
export function buildMergedMiningSeal(hashForMergedMining: Uint8Array, difficulty: bigint, opts: SealOptions = {}): MergedMiningSeal {
  const fullCoinbase = buildTaggedCoinbase(hashForMergedMining);
  const txids = [parentTxid(fullCoinbase), ...(opts.otherTxids ?? [])];
  const template: ParentHeader = {
    version: SEAL_HEADER_VERSION,
    prevHash: new Uint8Array(32),
    merkleRoot: merkleRoot(txids),
    time: opts.time ?? Math.floor(Date.now() / 1000),
    bits: SEAL_HEADER_BITS,
    nonce: 0,
  };
  const solved = solveParentHeader(template, targetFromDifficulty(difficulty), opts.maxTries);
  if (!solved) throw new Error(`no nonce meets the target of difficulty ${difficulty}`);
  return {
    header: serializeParentHeader(solved),
    coinbase: compressCoinbase(fullCoinbase),
    proof: rskip92Proof(txids, 0),
    fullCoinbase,
  };
}

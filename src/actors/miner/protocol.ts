/**
 * The miner owns the block templates waiting for a merged-mining seal (the last 20, keyed by
 * hashForMergedMining, merged-mining.md §1) and the built-in mining client. Every solution, from
 * the built-in client or from an external miner through mnr_*, goes through 'work.submit'.
 */
import type { Hex } from '../../chain/bytes.ts';
import type { HeadChange, ImportResult } from '../../chain/writer.ts';

export type MiningMode = 'auto' | 'interval' | 'off';

/** The fields of mnr_getWork. */
export interface Work {
  readonly blockHashForMergedMining: Hex;
  readonly target: Hex;
  readonly feesPaidToMiner: string;
  readonly notify: boolean;
  readonly parentBlockHash: Hex;
}

export interface Solution {
  /** 80-byte parent-chain header. */
  readonly parentHeader: Uint8Array;
  /** The full (uncompressed, non-witness) parent-chain coinbase transaction. */
  readonly coinbase: Uint8Array;
  /** RSKIP92 Merkle proof of the coinbase: sibling hashes in display order. */
  readonly proof: Uint8Array;
}

export interface SubmitResult {
  readonly result: ImportResult;
  readonly blockHash: Hex;
  readonly number: bigint;
}

export type MinerProtocol = {
  tell:
    | { type: 'pool.txAdded'; pending: boolean }
    | ({ type: 'chain.headChanged' } & HeadChange)
    | { type: 'mine.auto' }
    | { type: 'mine.tick' };
  ask: {
    'work.get': { req: {}; res: Work };
    'work.submit': { req: Solution; res: SubmitResult };
    /** Builds a block from the pool now and seals it with the built-in client. */
    'mine.now': { req: {}; res: SubmitResult };
    'mining.status': { req: {}; res: { mode: MiningMode; mining: boolean } };
  };
};

/**
 * The miner owns the block templates waiting for a merged-mining seal (the last 20, keyed by
 * hashForMergedMining, docs/merged-mining.md "Flow"), the sibling blocks it may include as uncles, the
 * hash-rate reports, and the built-in mining client. Every solution, from the built-in client or
 * from an external miner through mnr_* or eth_submitWork, goes through the same `submit`.
 */
import type { Hex } from '../../chain/codec/bytes.ts';
import type { StateEdit } from '../../chain/execution/blockRunner.ts';
import type { Block } from '../../chain/codec/block.ts';
import type { HeadChange, ImportResult, Template } from '../../chain/writer.ts';
import type { ParentSolution } from '../../mergedmining/index.ts';
import type { MiningMode } from './options.ts';

/** The fields of mnr_getWork. */
export interface Work {
  readonly blockHashForMergedMining: Hex;
  readonly target: Hex;
  readonly feesPaidToMiner: string;
  readonly notify: boolean;
  readonly parentBlockHash: Hex;
}

export interface SubmitResult {
  readonly result: ImportResult;
  readonly blockHash: Hex;
  readonly number: bigint;
}

export interface MiningStatus {
  readonly mode: MiningMode;
  /** The built-in client runs, or an external miner reported its hash rate in the last minute. */
  readonly mining: boolean;
  /** Hashes per second: the built-in client's over the last hour plus external miners' reports. */
  readonly hashrate: bigint;
  /** The address the blocks this node builds pay their fees to (eth_coinbase). */
  readonly coinbase: Uint8Array;
}

/**
 * The block clock as evm_snapshot saves it: the running offset, the next block's fixed timestamp, and the
 * clock's own time when it was saved (docs/rpc-compatibility.md "Time").
 */
export interface SavedClock {
  readonly offsetSec: bigint;
  readonly nextTimestamp: bigint | undefined;
  readonly savedAtSec: bigint;
}

export type MinerProtocol = {
  tell:
    | { type: 'pool.txAdded'; pending: boolean; alone: boolean }
    | { type: 'pool.txRemoved' }
    | ({ type: 'chain.headChanged' } & HeadChange)
    /** A block that did not become the head is a sibling of the chain: a candidate uncle. */
    | { type: 'chain.blockImported'; block: Block; best: boolean }
    | { type: 'mine.auto' }
    | { type: 'mine.tick' };
  ask: {
    'work.get': { req: {}; res: Work };
    'work.submit': { req: ParentSolution; res: SubmitResult };
    /** eth_getWork: [SHA-256 midstate of the parent header's first 64 bytes, its last 12 bytes (zero-padded), target]. */
    'work.ethGet': { req: {}; res: [Hex, Hex, Hex] };
    /** eth_submitWork: the nonce completes the parent header of the work named by its midstate. */
    'work.ethSubmit': { req: { nonce: bigint; powHash: Hex }; res: boolean };
    'hashrate.report': { req: { id: Hex; hashesPerSecond: bigint }; res: boolean };
    /** Builds a block from the pool now and seals it with the built-in client. */
    'mine.now': { req: {}; res: SubmitResult };
    /** hardhat_mine: `count` blocks, the first as 'mine.now' mines it, the next ones `interval` seconds apart. */
    'mine.blocks': { req: { count: bigint; interval: bigint }; res: null };
    'mining.status': { req: {}; res: MiningStatus };
    /** evm_startMining / evm_stopMining: the configured mode ('auto' if it was 'off'), or 'off'. Returns the mode now. */
    'mining.set': { req: { on: boolean }; res: MiningMode };
    /** evm_setAutomine / evm_setIntervalMining: switch to this mode (and interval). Returns the mode now. */
    'mining.mode': { req: { mode: MiningMode; blockTimeMs?: number }; res: MiningMode };
    /** evm_increaseTime: adds to the running offset of block timestamps; returns the total offset in seconds. */
    'time.increase': { req: { seconds: bigint }; res: bigint };
    /** evm_setNextBlockTimestamp: the next block of ours carries exactly this timestamp; later ones go on from it. */
    'time.setNext': { req: { timestamp: bigint }; res: null };
    /** hardhat_setBalance and the like: mines a block without transactions that applies the edits first. */
    'state.edit': { req: { edits: readonly StateEdit[] }; res: SubmitResult };
    /** evm_reset: no offset, no fixed next timestamp. */
    'time.reset': { req: {}; res: null };
    /** hardhat_setCoinbase: the blocks this node builds from now on pay their fees to this address. */
    'coinbase.set': { req: { address: Uint8Array }; res: null };
    /** evm_snapshot: the block clock as it stands. */
    'time.save': { req: {}; res: SavedClock };
    /** evm_revert: the block clock as it was saved, standing still since (the seconds that passed are taken off the offset). */
    'time.restore': { req: { saved: SavedClock }; res: null };
    /** The block this node would mine next, built on the head from the pool (the `pending` block); rebuilt when stale. */
    'block.pending': { req: {}; res: Template };
  };
};

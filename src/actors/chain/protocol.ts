/**
 * The chain actor owns LevelDB, the state trie and the VM used for block execution: it is the
 * only writer of chain data. Readers use the ChainReader (immutable snapshots); the miner asks it
 * to build templates and to import sealed blocks; it publishes chain.* events on the bus.
 */
import type { Block } from '../../chain/codec/block.ts';
import type { BuildRequest, HeadChange, ImportOutcome, Template } from '../../chain/writer.ts';
import type { BlockOrigin } from '../events.ts';

export type { BlockOrigin };

export type ChainProtocol = {
  /** The chain hears no events: every message is a question with an answer. */
  tell: never;
  ask: {
    'block.build': { req: BuildRequest; res: Template };
    /** `origin` tells subscribers whether to announce the block (only blocks mined here are). */
    'block.import': { req: { block: Block; origin: BlockOrigin }; res: ImportOutcome };
    /**
     * Blocks from a peer (a sync batch), imported in order and stored atomically (consecutive blocks
     * on the head in one batch, see ChainWriter.importRun); stops after the first that is invalid or
     * has no parent. One outcome per block tried; the head changes of the run are published as one.
     */
    'blocks.import': { req: { blocks: readonly Block[] }; res: ImportOutcome[] };
    /**
     * A block this node mined as the next of a run (hardhat_mine), on the tip the run left: kept pending with the
     * run's blocks before it (ChainWriter.importPending), not yet written, announced or published.
     */
    'block.importPending': { req: { block: Block }; res: ImportOutcome };
    /** Writes the pending run in one atomic batch, then announces its blocks and publishes its head changes as one. */
    'blocks.write': { req: {}; res: null };
    /** Moves the head back to canonical block `number` (evm_revert, evm_reset); published as a rewound head change. */
    'head.rewind': { req: { number: bigint }; res: HeadChange };
  };
};

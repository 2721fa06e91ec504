/** Events published on the node's bus; subscribers receive them as tells. */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Block } from '../chain/codec/block.ts';
import type { Hex } from '../chain/codec/bytes.ts';
import type { HeadChange } from '../chain/writer.ts';

/** Where a block came from: mined by this node, or received from a peer (gossip or sync). */
export type BlockOrigin = 'local' | 'peer';

export type NodeEvent =
  | ({ type: 'chain.headChanged' } & HeadChange)
  | { type: 'chain.blockImported'; block: Block; best: boolean; origin: BlockOrigin }
  /** `alone`: it is the only transaction in the pool (it did not join others waiting for a block). */
  | { type: 'pool.txAdded'; tx: TypedTransaction; pending: boolean; alone: boolean }
  /**
   * Outside a head change, a transaction left the pool unmined (evicted, replaced, expired) or fell back from pending
   * to queued (`queued`): the miner's next block changes.
   */
  | { type: 'pool.txRemoved'; hash: Hex; queued?: true }
  /** A transaction left the pool unmined, for any reason (also in a head change: used nonce, dropped as invalid, a rewind). */
  | { type: 'pool.txLeft'; hash: Hex };

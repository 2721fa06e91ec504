/** Events published on the node's bus; subscribers receive them as tells. */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { Block } from '../chain/block.ts';
import type { HeadChange } from '../chain/writer.ts';

export type NodeEvent =
  | ({ type: 'chain.headChanged' } & HeadChange)
  | { type: 'chain.blockImported'; block: Block; best: boolean }
  | { type: 'pool.txAdded'; tx: TypedTransaction; pending: boolean };

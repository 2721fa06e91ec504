/** What the RPC modules may use: read access to the chain and refs to the actors they ask. */
import type { ActorRef } from '../actors/kernel/index.ts';
import type { MinerProtocol } from '../actors/miner/index.ts';
import type { TxPoolProtocol } from '../actors/txpool/index.ts';
import type { CallExecutor } from '../chain/calls.ts';
import type { ChainReader } from '../chain/reader.ts';
import type { BlockReplayer } from '../tracing/replay.ts';

export interface RpcDeps {
  readonly reader: ChainReader;
  readonly txpool: ActorRef<TxPoolProtocol>;
  readonly miner: ActorRef<MinerProtocol>;
  readonly calls: CallExecutor;
  /** Re-executes stored blocks for debug_* and trace_* traces. */
  readonly replayer: BlockReplayer;
  /** Private keys the node holds unlocked, by lowercase 0x address (regtest development accounts). */
  readonly accounts: ReadonlyMap<string, Uint8Array>;
  readonly clientVersion: string;
  /** The address mined blocks pay their fees to. */
  readonly coinbase: Uint8Array;
}

/** What the RPC modules may use: read access to the chain and refs to the actors they ask. */
import type { BlockSyncProtocol } from '../actors/blockSync/index.ts';
import type { Wallet } from '../accounts/wallet.ts';
import type { ImpersonatedAccounts } from './impersonation.ts';
import type { ChainProtocol } from '../actors/chain/index.ts';
import type { FilterSupervisorProtocol } from '../actors/filterSupervisor/index.ts';
import type { ActorRef } from '../actors/kernel/index.ts';
import type { PeerManagerProtocol } from '../actors/peerManager/index.ts';
import type { MinerProtocol } from '../actors/miner/index.ts';
import type { TxPoolProtocol } from '../actors/txpool/index.ts';
import type { CallExecutor } from '../chain/calls.ts';
import type { ChainView } from '../chain/reader.ts';
import type { BlockReplayer } from '../tracing/replay.ts';
import type { InclusionWaits } from './inclusion.ts';
import type { CallContext } from './method.ts';
import type { PendingBlockSource, PendingSource } from './pending.ts';
import type { RevertCode } from './options.ts';
import type { RpcWorkerPool } from './workers/pool.ts';

export interface RpcDeps {
  readonly reader: ChainView;
  /** The chain actor: only evm_revert and evm_reset ask it, to rewind the head. */
  readonly chain: ActorRef<ChainProtocol>;
  readonly txpool: ActorRef<TxPoolProtocol>;
  /** Owner of the polling filters (eth_newFilter and the rest). */
  readonly filters: ActorRef<FilterSupervisorProtocol>;
  readonly miner: ActorRef<MinerProtocol>;
  /** Most gas one eth_call, eth_estimateGas or debug_traceCall may use (--rpc-gas-cap). */
  readonly gasCap: bigint;
  /** The worker threads that serve the methods which run the EVM (src/rpc/modules/workerMethods.ts). */
  readonly workers: RpcWorkerPool;
  /** Calls at the head run on the main thread while the workers are idle; absent: every call goes to them. */
  readonly mainThreadCalls?: MainThreadCallRunner;
  /** The node's accounts and keys (personal_*, eth_sign, eth_sendTransaction); absent when the node holds no keys. */
  readonly wallet?: Wallet;
  /** What waits for a sent transaction's block: the requests after a send under automine, and the sync sends' answers. */
  readonly inclusions: InclusionWaits;
  /** The block this node would mine next, for the `pending` tag. */
  readonly pending: PendingBlockSource;
  readonly clientVersion: string;
  readonly peers: ActorRef<PeerManagerProtocol>;
  readonly sync: ActorRef<BlockSyncProtocol>;
  /** Why evm_* and their hardhat_/anvil_ names are off (another network, hosted mode); undefined: served. */
  readonly devControlsOff?: string;
  /** The accounts eth_sendTransaction sends as without keys; set by buildMethods where the developer controls are served. */
  readonly impersonated?: ImpersonatedAccounts;
  /** The error code of reverts in eth_call / eth_estimateGas (`--rpc-revert-code`); undefined: -32015. */
  readonly revertCode?: RevertCode;
}

/** What the worker methods and the metrics use of the main thread's calls (src/rpc/mainThreadCalls.ts). */
export interface MainThreadCallRunner {
  /** The call's answer, or undefined when it goes to the workers. */
  run(method: string, params: unknown[], workersIdle: () => boolean, ctx?: CallContext): Promise<{ readonly value: unknown } | undefined>;
  /** Calls answered on the main thread, and calls stopped there past their budget. */
  stats(): { served: number; stopped: number };
}

/**
 * What the methods that run the EVM use (src/rpc/modules/workerMethods.ts): on a worker, an executor for
 * calls at stored blocks, and the pending block a request carried.
 */
export type EvmDeps = Pick<RpcDeps, 'reader' | 'gasCap'> & {
  readonly calls?: CallExecutor;
  /** Re-executes blocks for debug_* and trace_* traces. */
  readonly replayer?: BlockReplayer;
  readonly pending?: PendingSource;
};

/** The replayer of a worker's methods: the main thread has none, its traces run on the workers. */
export function replayerOf(deps: Pick<EvmDeps, 'replayer'>): BlockReplayer {
  if (!deps.replayer) throw new Error('a trace reached the main thread: traces run on the RPC workers');
  return deps.replayer;
}

/**
 * What the status page shows (docs/operations.md "Status page"): head, peers with their scores, the
 * pool, mining, sync progress, and the recent blocks with their parents and uncles so the page can
 * draw forks. Served as JSON at /status.json; bigints as decimal strings, hashes as hex.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Block } from '../chain/codec/block.ts';
import { headerHash } from '../chain/codec/header.ts';
import { describeProgress } from '../actors/blockSync/progress.ts';
import type { RpcDeps } from '../rpc/deps.ts';

/** The actors and reader the RPC modules ask too, and this node's peer id. */
export type StatusSources = Pick<RpcDeps, 'reader' | 'peers' | 'txpool' | 'miner' | 'sync' | 'workers' | 'mainThreadCalls' | 'clientVersion'> & { readonly peerId: string };

export interface RecentBlock {
  readonly number: string;
  readonly hash: string;
  readonly parentHash: string;
  readonly uncles: readonly string[];
  readonly txs: number;
  readonly timestamp: string;
}

/** The newest blocks imported, best or not, oldest first: a fork stays visible after the best chain moved past it. */
export class RecentBlocks {
  #blocks: RecentBlock[] = [];
  constructor(private readonly capacity: number) {}

  add(block: Block): void {
    const entry: RecentBlock = {
      number: String(block.header.number), hash: bytesToHex(block.hash), parentHash: bytesToHex(block.header.parentHash),
      uncles: block.uncles.map((u) => bytesToHex(headerHash(u))), txs: block.txs.length, timestamp: String(block.header.timestamp),
    };
    if (this.#blocks.some((b) => b.hash === entry.hash)) return;
    this.#blocks = [...this.#blocks, entry].sort((a, b) => Number(BigInt(a.number) - BigInt(b.number))).slice(-this.capacity);
  }

  list(): readonly RecentBlock[] {
    return this.#blocks;
  }
}

export async function statusSnapshot(src: StatusSources, recent: RecentBlocks) {
  const { reader } = src;
  const head = reader.head();
  const [peers, scores, pool, mining, sync] = await Promise.all([
    src.peers.ask('peers.list', {}), src.peers.ask('sco.peerList', {}), src.txpool.ask('pool.list', {}),
    src.miner.ask('mining.status', {}), src.sync.ask('sync.report', {}),
  ]);
  const scoreOf = new Map(scores.map((s) => [s.id, s]));
  const blocks = await Promise.all(recent.list().map(async (b) => ({
    ...b, canonical: bytesToHex((await reader.canonicalHash(BigInt(b.number))) ?? new Uint8Array()) === b.hash,
  })));
  return {
    clientVersion: src.clientVersion, network: reader.network.name, chainId: String(reader.network.chainId), peerId: src.peerId,
    head: { number: String(head.number), hash: bytesToHex(head.hash), totalDifficulty: String(head.totalDifficulty), timestamp: String(head.header.timestamp) },
    peers: peers.map((p) => ({
      id: p.id, address: `${p.host}:${p.port}`, head: p.status ? String(p.status.headNumber) : null,
      score: scoreOf.get(p.id)?.score ?? 0, goodReputation: scoreOf.get(p.id)?.goodReputation ?? true,
    })),
    pool: { pending: pool.pending.length, queued: pool.queued.length },
    rpcWorkers: src.workers.stats(),
    mining: { mode: mining.mode, mining: mining.mining, hashrate: String(mining.hashrate) },
    sync: sync === false ? null : {
      startingBlock: String(sync.startingBlock), currentBlock: String(sync.currentBlock), highestBlock: String(sync.highestBlock),
      blocksPerSecond: sync.blocksPerSecond, etaSeconds: sync.etaSeconds ?? null, text: describeProgress(sync),
    },
    blocks,
  };
}

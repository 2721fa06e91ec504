/**
 * A local network of real nodes on 127.0.0.1 for tests and benchmarks: N in-process nodes, each
 * with its own actors, LevelDB in a temp dir and free ports, connected to each other; partition and
 * heal them through their peer managers (the ban hook), stop them in reverse order.
 */
import { rmSync } from 'node:fs';
import type { MiningMode } from '../src/actors/miner/index.ts';
import { NETWORKS } from '../src/chain/execution/networks.ts';
import type { NodeConfig } from '../src/config/index.ts';
import { startNode, type RunningNode } from '../src/node.ts';
import { tempDir } from '../test/helpers/node.ts';

export interface TestnetNode {
  readonly index: number;
  readonly url: string;
  readonly node: RunningNode;
  readonly config: NodeConfig;
}

export interface Testnet {
  readonly nodes: TestnetNode[];
  /** Starts one more node joined to the others (a late joiner). */
  add(opts?: { mining?: MiningMode; blockTimeMs?: number }): Promise<TestnetNode>;
  /** Cuts every connection between the two groups (by node index) until heal(). */
  partition(a: number[], b: number[]): Promise<void>;
  heal(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestnetOptions {
  readonly nodes: number;
  /** Indexes of the nodes that mine; the others only follow. */
  readonly miners: number[];
  /** 'auto' mines on new transactions; 'interval' every `blockTimeMs`. */
  readonly mining?: MiningMode;
  readonly blockTimeMs?: number;
}

const HOUR_MS = 3_600_000;

export async function startTestnet(opts: TestnetOptions): Promise<Testnet> {
  const nodes: TestnetNode[] = [];
  const cuts: [number, number][] = [];

  async function add(o: { mining?: MiningMode; blockTimeMs?: number } = {}): Promise<TestnetNode> {
    const index = nodes.length;
    const config: NodeConfig = {
      network: 'regtest', dataDir: tempDir('mmnode-testnet-'), rpcHost: '127.0.0.1', rpcPort: 0,
      mining: o.mining ?? 'off', blockTimeMs: o.blockTimeMs ?? 0, coinbase: minerAddress(index), minGasPrice: 0n, quiet: true,
      p2p: { host: '127.0.0.1', port: 0, announce: [], bootnodes: nodes.flatMap((n) => n.node.p2p.multiaddrs), minPeers: 8, maxPeers: 32, punishmentMs: 12 * 60_000 },
    };
    const node = await startNode(config);
    const entry = { index, url: node.rpcUrl, node, config };
    nodes.push(entry);
    return entry;
  }

  for (let i = 0; i < opts.nodes; i++) {
    const mines = opts.miners.includes(i);
    await add({ mining: mines ? opts.mining ?? 'auto' : 'off', blockTimeMs: opts.blockTimeMs });
  }

  return {
    nodes,
    add,
    async partition(a, b) {
      for (const i of a) for (const j of b) {
        cuts.push([i, j]);
        await nodes[i]!.node.peers.ask('peers.ban', { peer: nodes[j]!.node.p2p.peerId, ms: HOUR_MS });
        await nodes[j]!.node.peers.ask('peers.ban', { peer: nodes[i]!.node.p2p.peerId, ms: HOUR_MS });
      }
    },
    async heal() {
      for (const [i, j] of cuts.splice(0)) {
        await nodes[i]!.node.peers.ask('peers.unban', { peer: nodes[j]!.node.p2p.peerId });
        await nodes[j]!.node.peers.ask('peers.unban', { peer: nodes[i]!.node.p2p.peerId });
        await nodes[i]!.node.peers.ask('p2p.dial', { multiaddr: nodes[j]!.node.p2p.multiaddrs[0]! }).catch(() => {});
      }
    },
    async stop() {
      for (const n of [...nodes].reverse()) {
        await n.node.stop();
        rmSync(n.config.dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A distinct coinbase per node, so blocks show who mined them. */
export function minerAddress(index: number): Uint8Array {
  if (index === 0) return NETWORKS.regtest.defaultCoinbase;
  const a = new Uint8Array(20);
  a[0] = 0xaa;
  a[19] = index;
  return a;
}

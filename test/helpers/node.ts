/** Start real nodes for tests: in-process (port 0, LevelDB in a temp dir) or as a child process. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORKS } from '../../src/chain/execution/networks.ts';
import type { NodeConfig } from '../../src/config/index.ts';
import { startNode, type RunningNode } from '../../src/node.ts';
import { startNodeProcess, type NodeProcess } from '../../testnet/launch.ts';
import { rpc, rpcError } from './rpc.ts';

export const tempDir = (prefix = 'mmnode-test-') => mkdtempSync(join(tmpdir(), prefix));

export function testConfig(overrides: Partial<NodeConfig> = {}): NodeConfig {
  return {
    network: 'regtest', dataDir: overrides.dataDir ?? tempDir(), rpcHost: '127.0.0.1', rpcPort: 0, mining: 'auto',
    blockTimeMs: 0, coinbase: NETWORKS.regtest.defaultCoinbase, minGasPrice: 0n, quiet: true,
    p2p: { host: '127.0.0.1', port: 0, announce: [], bootnodes: [], minPeers: 8, maxPeers: 32, punishmentMs: 12 * 60_000 }, ...overrides,
  };
}

export interface TestNode {
  readonly url: string;
  readonly node: RunningNode;
  readonly config: NodeConfig;
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export async function startTestNode(overrides: Partial<NodeConfig> = {}): Promise<TestNode> {
  const config = testConfig(overrides);
  const node = await startNode(config);
  return {
    url: node.rpcUrl, node, config,
    async stop({ keepData = false } = {}) {
      await node.stop();
      if (!keepData) rmSync(config.dataDir, { recursive: true, force: true });
    },
  };
}

/** A node in its own process (as `npm start` runs it), with its RPC URL. */
export type ChildNode = NodeProcess & { readonly url: string };

/** Runs the node in its own process on `dataDir` (free ports); resolves once its `ready` line is printed. */
export async function startChildNode(dataDir: string, extraArgs: string[] = []): Promise<ChildNode> {
  const node = await startNodeProcess(['--data-dir', dataDir, '--rpc-port', '0', '--p2p-port', '0', '--quiet', ...extraArgs]);
  return { ...node, url: node.ready.rpcUrl };
}

/**
 * A node started on first use inside a test (a `before` hook that throws would pass silently in uvu),
 * with raw JSON-RPC helpers bound to it. Call `stop` in the suite's `after`.
 */
export function lazyNode(overrides: Partial<NodeConfig> = {}) {
  let starting: Promise<TestNode> | undefined;
  return boundTo(async () => (await (starting ??= startTestNode(overrides))).url, async () => { await (await starting?.catch(() => undefined))?.stop(); });
}

/**
 * As lazyNode, with the node in its own process: a client there is not paced by the node's event loop,
 * so what it asks right after an answer reaches the node while the node is still at work.
 */
export function lazyChildNode(extraArgs: string[] = []) {
  const dataDir = tempDir();
  let starting: Promise<ChildNode> | undefined;
  return boundTo(async () => (await (starting ??= startChildNode(dataDir, extraArgs))).url, async () => {
    const node = await starting?.catch(() => undefined);
    node?.child.kill('SIGTERM');
    await node?.exited;
    rmSync(dataDir, { recursive: true, force: true });
  });
}

/** Raw JSON-RPC helpers bound to a node found at `url()`. */
function boundTo(url: () => Promise<string>, stop: () => Promise<void>) {
  return {
    url,
    call: async <T = any>(method: string, params: unknown[] = []) => rpc<T>(await url(), method, params),
    fails: async (method: string, params: unknown[] = []) => rpcError(await url(), method, params),
    stop,
  };
}

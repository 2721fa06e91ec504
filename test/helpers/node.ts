/** Start real nodes for tests: in-process (port 0, LevelDB in a temp dir) or as a child process. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NETWORKS } from '../../src/chain/networks.ts';
import type { NodeConfig } from '../../src/config.ts';
import { startNode, type RunningNode } from '../../src/node.ts';
import { nodeProcessArgs } from '../../testnet/launch.ts';
import { rpc, rpcError } from './rpc.ts';

export const tempDir = (prefix = 'mmnode-test-') => mkdtempSync(join(tmpdir(), prefix));

export function testConfig(overrides: Partial<NodeConfig> = {}): NodeConfig {
  return {
    network: 'regtest', dataDir: overrides.dataDir ?? tempDir(), rpcHost: '127.0.0.1', rpcPort: 0, mining: 'auto',
    blockTimeMs: 0, coinbase: NETWORKS.regtest.defaultCoinbase, minGasPrice: 0n, quiet: true,
    p2p: { host: '127.0.0.1', port: 0, bootnodes: [], maxPeers: 32, punishmentMs: 12 * 60_000 }, ...overrides,
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

const root = new URL('../..', import.meta.url).pathname;

export interface ChildNode {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or signal) once the process ended. */
  readonly exited: Promise<number | string | null>;
}

/** Runs the node (as `npm start` does) in its own process; resolves once its `ready` line is printed. */
export function startChildNode(dataDir: string, extraArgs: string[] = []): Promise<ChildNode> {
  const child = spawn(process.execPath, nodeProcessArgs(['--data-dir', dataDir, '--rpc-port', '0', '--p2p-port', '0', '--quiet', ...extraArgs]), {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | string | null>((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node did not start within 30 s:\n${out}`)), 30_000);
    const onData = (d: Buffer) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) {
        clearTimeout(timer);
        resolve({ url: JSON.parse(line).rpcUrl, child, output: () => out, exited });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => { out += d; });
    child.on('exit', () => { clearTimeout(timer); reject(new Error(`node exited before it was ready:\n${out}`)); });
  });
}

/**
 * A node started on first use inside a test (a `before` hook that throws would pass silently in uvu),
 * with raw JSON-RPC helpers bound to it. Call `stop` in the suite's `after`.
 */
export function lazyNode(overrides: Partial<NodeConfig> = {}) {
  let starting: Promise<TestNode> | undefined;
  const url = async () => (await (starting ??= startTestNode(overrides))).url;
  return {
    url,
    call: async <T = any>(method: string, params: unknown[] = []) => rpc<T>(await url(), method, params),
    fails: async (method: string, params: unknown[] = []) => rpcError(await url(), method, params),
    stop: async () => { await (await starting?.catch(() => undefined))?.stop(); },
  };
}

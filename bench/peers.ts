/**
 * The nodes under test, each a child process on 127.0.0.1: mmnode (as `npm start` runs it), `hardhat node`
 * (Hardhat 3, EDR), Ganache 7 and Anvil (Foundry's native binary). The child's PID is the node itself
 * (no npm/npx wrapper), so /proc/<pid>/status gives the node's own RSS.
 */
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NODE_RUNTIME_ENV, USAGE } from '../src/config/index.ts';
import { nodeProcessArgs } from '../testnet/launch.ts';
import { rpc } from './load.ts';

export const ROOT = new URL('..', import.meta.url).pathname;
export const BENCH = new URL('.', import.meta.url).pathname;
/** Node 24 from the root's `node` devDependency (the one on PATH may be older). */
export const NODE_BIN = join(ROOT, 'node_modules/.bin/node');

/** The peers of `npm run bench:peers`; Anvil joins the benchmarks that name it. */
export const PEERS = ['mmnode', 'hardhat', 'ganache'] as const;
export type PeerName = (typeof PEERS)[number] | 'anvil';
export const ANVIL_BIN = join(BENCH, 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil');

/**
 * Installs the other peers' packages (bench/package.json: Hardhat 3, Ganache 7, Anvil) on first use. `npm install`
 * (which keeps to bench/package-lock.json) rather than `npm ci`: the registry here lacks some of EDR's
 * other-platform packages, which `npm ci` insists on seeing in the lockfile.
 */
function installPeerPackages(): void {
  const installed = [join(BENCH, 'node_modules/hardhat'), join(BENCH, 'node_modules/ganache'), ANVIL_BIN].every((p) => existsSync(p));
  if (installed) return;
  console.error('installing the bench peers\' packages (npm install --prefix bench)');
  const r = spawnSync('npm', ['install', '--prefix', BENCH, '--no-audit', '--no-fund'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('npm install --prefix bench failed');
}

export interface Peer {
  readonly name: PeerName;
  readonly url: string;
  readonly pid: number;
  /** The command line, for the report. */
  readonly command: string;
  /** Current and peak resident set size of the node process, in MiB. */
  memory(): { rssMb: number; hwmMb: number };
  stop(): Promise<void>;
}

export interface PeerOptions {
  chainId: number;
  /** Private keys (0x…) to fund at genesis where the peer allows it. */
  keys: readonly string[];
  balanceWei: bigint;
  /** More command-line flags for mmnode (the worker count of bench/heavy.ts). */
  mmnodeArgs?: readonly string[];
}

export function readMemory(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, hwmMb: kb('VmHWM') / 1024 };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, '');

interface Launch {
  /** The executable: the pinned Node unless said otherwise. */
  bin?: string;
  args: string[];
  cwd: string;
  env?: Record<string, string>;
  /** Finds the RPC URL in the output; undefined when the URL is known in advance. */
  urlFrom?: (output: string) => string | undefined;
  url?: string;
  cleanup?: () => void;
}

async function launch(name: PeerName, opts: PeerOptions): Promise<Launch> {
  switch (name) {
    case 'mmnode': {
      // Regtest: chain id 33 and ten funded dev accounts; the bench funds its other senders itself.
      const dataDir = mkdtempSync(join(tmpdir(), 'mmnode-bench-'));
      // Newer nodes also listen for peers (default port 5050): take a free port instead, where the flag exists.
      const p2p = USAGE.includes('--p2p-port') ? ['--p2p-port', '0'] : [];
      return {
        args: nodeProcessArgs(['--data-dir', dataDir, '--rpc-port', '0', ...p2p, '--quiet', ...(opts.mmnodeArgs ?? [])]),
        cwd: ROOT, env: NODE_RUNTIME_ENV,
        urlFrom: (out) => {
          const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
          return line ? JSON.parse(line).rpcUrl : undefined;
        },
        cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
      };
    }
    case 'hardhat':
      // bench/hardhat.config.js reads the keys and chain id from the environment.
      return {
        args: [join(BENCH, 'node_modules/hardhat/dist/src/cli.js'), 'node', '--hostname', '127.0.0.1', '--port', '0'],
        cwd: BENCH,
        env: { BENCH_KEYS: opts.keys.join(','), BENCH_CHAIN_ID: String(opts.chainId), HARDHAT_DISABLE_TELEMETRY: 'true' },
        urlFrom: (out) => /JSON-RPC server at (http:\/\/[\d.]+:\d+)/.exec(stripAnsi(out))?.[1],
      };
    case 'ganache': {
      const port = await freePort();
      return {
        args: [
          join(BENCH, 'node_modules/ganache/dist/node/cli.js'),
          '--server.host', '127.0.0.1', '--server.port', String(port), '--chain.chainId', String(opts.chainId),
          '--logging.quiet', ...opts.keys.flatMap((k) => ['--wallet.accounts', `${k},${opts.balanceWei}`]),
        ],
        cwd: BENCH,
        url: `http://127.0.0.1:${port}`,
      };
    }
    case 'anvil':
      // Funded after start (anvil_setBalance): its own accounts are not ours.
      return {
        bin: ANVIL_BIN, args: ['--host', '127.0.0.1', '--port', '0', '--chain-id', String(opts.chainId)], cwd: BENCH,
        urlFrom: (out) => {
          const hostPort = /Listening on (127\.0\.0\.1:\d+)/.exec(out)?.[1];
          return hostPort && `http://${hostPort}`;
        },
      };
  }
}

/** Starts a peer and resolves once it answers eth_chainId; rejects within 60 s otherwise. */
export async function startPeer(name: PeerName, opts: PeerOptions): Promise<Peer> {
  if (name !== 'mmnode') installPeerPackages();
  const l = await launch(name, opts);
  if (l.bin && !existsSync(l.bin)) throw new Error(`${l.bin} is missing: run npm install --prefix bench`);
  const child: ChildProcess = spawn(l.bin ?? NODE_BIN, l.args, {
    cwd: l.cwd, env: { ...process.env, ...l.env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  let output = '';
  // Keep draining the pipes (a full pipe would block the node); keep only the head for errors.
  const keep = (d: Buffer) => { if (output.length < 64_000) output += d.toString(); };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  // For the report: the sixteen `--wallet.accounts <key>,<balance>` pairs of Ganache shown once.
  const shown = l.args.filter((a, i) => a !== '--wallet.accounts' && l.args[i - 1] !== '--wallet.accounts');
  const wallets = l.args.length - shown.length;
  const env = name === 'mmnode' ? Object.entries(NODE_RUNTIME_ENV).map(([k, v]) => `${k}=${v}`) : [];
  const command = [...env, l.bin ?? NODE_BIN, ...shown, ...(wallets ? [`--wallet.accounts <key>,${opts.balanceWei} (×${wallets / 2})`] : [])].join(' ');

  let exitedEarly = false;
  void exited.then(() => { exitedEarly = true; });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    l.cleanup?.();
  };

  try {
    const deadline = Date.now() + 60_000;
    let url = l.url;
    for (;;) {
      if (exitedEarly) throw new Error(`${name} exited before it was ready`);
      if (Date.now() > deadline) throw new Error(`${name} did not answer within 60 s`);
      url ??= l.urlFrom?.(output);
      if (url && (await rpc(url, 'eth_chainId').then(() => true, () => false))) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const chainId = Number(await rpc(url, 'eth_chainId'));
    if (chainId !== opts.chainId) throw new Error(`${name} reports chain id ${chainId}, expected ${opts.chainId}`);
    // `hardhat node` logs every request to stdout; the others run quiet, so turn that off too.
    if (name === 'hardhat') await rpc(url, 'hardhat_setLoggingEnabled', [false]);
    if (name === 'anvil') {
      for (const key of opts.keys) {
        await rpc(url, 'anvil_setBalance', [bytesToHex(privateToAddress(hexToBytes(key as `0x${string}`))), `0x${opts.balanceWei.toString(16)}`]);
      }
    }
    return { name, url, pid: child.pid!, command, memory: () => readMemory(child.pid!), stop };
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}\n--- output ---\n${output.slice(0, 4000)}`);
  }
}

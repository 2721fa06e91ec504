/**
 * How a node process is started, by `npm start`, the testnet, the tests and the benchmarks alike: the
 * node's bundle (testnet/bundle.ts, built first when its sources changed) run by the pinned Node with
 * NODE_RUNTIME_FLAGS and NODE_RUNTIME_ENV.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_RUNTIME_ENV, NODE_RUNTIME_FLAGS } from '../src/config/index.ts';
import { buildNodeBundle, ROOT } from './bundle.ts';

/** Arguments for `spawn(process.execPath, …)` that start a node with `args`; its environment: nodeProcessEnv. */
export const nodeProcessArgs = (args: readonly string[]): string[] => [...NODE_RUNTIME_FLAGS, buildNodeBundle(), ...args];
/** The environment a node process starts with: this process's, and NODE_RUNTIME_ENV. */
export const nodeProcessEnv = (): NodeJS.ProcessEnv => ({ ...process.env, ...NODE_RUNTIME_ENV });

/** The machine-readable line a node prints once it serves (src/cli.ts). */
export interface ReadyLine {
  readonly rpcUrl: string;
  /** With --metrics-port: the metrics and status page server. */
  readonly metricsUrl?: string;
  readonly peerId: string;
  readonly multiaddrs: readonly string[];
}

export interface NodeProcess {
  readonly child: ChildProcess;
  readonly ready: ReadyLine;
  /** All it printed so far, stdout and stderr. */
  output(): string;
  /** Resolves with the exit code (or signal) once the process ended. */
  readonly exited: Promise<number | string | null>;
}

/** Starts a node process with `args`; resolves once its ready line is printed, rejects (with its output) if it exits first or takes 30 s. */
export function startNodeProcess(args: readonly string[]): Promise<NodeProcess> {
  const child = spawn(process.execPath, nodeProcessArgs(args), { cwd: ROOT, env: nodeProcessEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const output = () => out;
  const exited = new Promise<number | string | null>((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  child.stderr!.on('data', (d: Buffer) => { out += d; });
  let ready = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`node did not start within 30 s:\n${out}`)); }, 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const line = ready ? undefined : out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) {
        ready = true;
        clearTimeout(timer);
        resolve({ child, ready: JSON.parse(line), output, exited });
      }
    });
    child.on('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`node exited (${signal ?? code}) before it was ready:\n${out}`)); });
  });
}


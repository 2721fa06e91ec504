/**
 * How a node process is started, by `npm start` (`npm run build` first), the testnet, the tests and
 * the benchmarks alike: one ESM bundle of src/main.ts and its dependencies run by the pinned Node
 * with NODE_RUNTIME_FLAGS and NODE_RUNTIME_ENV, and beside it the bundles its worker threads run.
 * Running the bundle rather than the TypeScript through tsx leaves out tsx's loader thread and the
 * source maps it loads (about 17 MB less resident memory). Bundling the dependencies too, without
 * comments and blank space, leaves out the parts never imported and hundreds of module records: V8 keeps every loaded script's source in memory (about 11 MB less
 * again). Identifiers keep their names, so stack traces stay readable.
 *
 *   npx tsx testnet/launch.ts   writes dist/main.mjs, dist/worker.mjs and dist/senderWorker.mjs
 *                               (what `npm run build` does)
 */
import { buildSync } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { NODE_RUNTIME_ENV, NODE_RUNTIME_FLAGS } from '../src/config/index.ts';

export const ROOT = new URL('..', import.meta.url).pathname;
export const NODE_BUNDLE = join(ROOT, 'dist/main.mjs');

let built = false;

/**
 * Bundles src/main.ts into dist/main.mjs once per process (about 50 ms), so a child never runs stale
 * code; beside it the workers' bundles, each holding only what its worker loads: dist/worker.mjs, the
 * RPC workers' (src/workerMain.ts, docs/rpc-workers.md "Entry"), and dist/senderWorker.mjs, block
 * sync's sender recovery worker (src/actors/blockSync/senders.ts), so it starts in a fraction of the node's time.
 */
export function buildNodeBundle(): string {
  if (built) return NODE_BUNDLE;
  const outputs = buildSync({
    entryPoints: {
      senderWorker: join(ROOT, 'src/actors/blockSync/senderWorker.ts'), worker: join(ROOT, 'src/workerMain.ts'), main: join(ROOT, 'src/main.ts'),
    },
    outdir: dirname(NODE_BUNDLE), outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node22',
    // Native addons find their binaries next to their own files: they load from node_modules.
    external: ['classic-level', 'secp256k1'], minifyWhitespace: true, minifySyntax: true, write: false, logLevel: 'warning',
    // CommonJS dependencies inside an ES module still call require (for Node's built-in modules).
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  }).outputFiles;
  mkdirSync(dirname(NODE_BUNDLE), { recursive: true });
  // Each written aside then renamed, the workers' first: a node starting meanwhile (another test process) reads whole files.
  const main = outputs.find((o) => o.path === NODE_BUNDLE)!;
  for (const out of [...outputs.filter((o) => o !== main), main]) {
    const tmp = `${out.path}.${process.pid}.tmp`;
    writeFileSync(tmp, out.contents);
    renameSync(tmp, out.path);
  }
  built = true;
  return NODE_BUNDLE;
}

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

if (process.argv[1] === new URL(import.meta.url).pathname) buildNodeBundle();

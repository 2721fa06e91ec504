/**
 * The node's bundles (docs/operations.md "Start-up"): dist/main.mjs, one ESM bundle of src/main.ts and its
 * dependencies, and beside it the bundles its worker threads run. Running the bundle rather than the
 * TypeScript through tsx leaves out tsx's loader thread and the source maps it loads (about 17 MB less
 * resident memory). Bundling the dependencies too, without comments and blank space, leaves out the parts
 * never imported and hundreds of module records: V8 keeps every loaded script's source in memory (about
 * 11 MB less again). Identifiers keep their names, so stack traces stay readable.
 *
 * This module imports nothing but Node and esbuild, so Node runs it as it is (its own type stripping):
 *
 *   node testnet/bundle.ts   writes the bundles unless they are up to date (what `npm run build` and
 *                            `npm start` do)
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

export const ROOT = new URL('..', import.meta.url).pathname;
export const NODE_BUNDLE = join(ROOT, 'dist/main.mjs');
/** What the last build read and wrote, with each file's size and modification time: the bundles are up to date while all of them are unchanged. */
const MANIFEST = join(ROOT, 'dist/bundle-inputs.json');
const THIS_FILE = new URL(import.meta.url).pathname;

type Stamps = Record<string, string>;

/** A file's size and modification time, or undefined when it is gone or was changed at or after `notAfterMs`. */
function stamp(path: string, notAfterMs = Infinity): string | undefined {
  try {
    const s = statSync(join(ROOT, path));
    return s.mtimeMs < notAfterMs ? `${s.size}:${s.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

/** True when the manifest's every input (this file and tsconfig.json among them) and output still has the size and time it had. */
function upToDate(): boolean {
  let files: Stamps;
  try {
    files = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Stamps;
  } catch {
    return false;
  }
  return files[relative(ROOT, NODE_BUNDLE)] !== undefined && Object.entries(files).every(([path, was]) => stamp(path) === was);
}

let built = false;

/**
 * Bundles src/main.ts into dist/main.mjs, at most once per process and only when a file it was built from
 * changed, so a child never runs stale code; beside it the workers' bundles, each holding only what its
 * worker loads: dist/worker.mjs, the RPC workers' (src/workerMain.ts, docs/rpc-workers.md "Entry"), and
 * dist/senderWorker.mjs, block sync's sender recovery worker (src/actors/blockSync/senders.ts), so it starts
 * in a fraction of the node's time.
 */
export function buildNodeBundle(): string {
  if (built || upToDate()) {
    built = true;
    return NODE_BUNDLE;
  }
  // Loaded only to build: the check above runs in a few milliseconds, esbuild's start takes longer.
  const { buildSync } = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const startedMs = Date.now();
  const result = buildSync({
    entryPoints: {
      senderWorker: join(ROOT, 'src/actors/blockSync/senderWorker.ts'), worker: join(ROOT, 'src/workerMain.ts'), main: join(ROOT, 'src/main.ts'),
    },
    absWorkingDir: ROOT, outdir: dirname(NODE_BUNDLE), outExtension: { '.js': '.mjs' }, bundle: true, platform: 'node', format: 'esm', target: 'node22',
    // Native addons find their binaries next to their own files: they load from node_modules.
    external: ['classic-level', 'secp256k1'], minifyWhitespace: true, minifySyntax: true, write: false, logLevel: 'warning', metafile: true,
    // CommonJS dependencies inside an ES module still call require (for Node's built-in modules).
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  // A source edited while this built may be in the bundle as it was before: it gets no stamp, so the next start builds again.
  // esbuild reads tsconfig.json too (class fields, decorators), though its report lists only modules.
  const inputs = [relative(ROOT, THIS_FILE), 'tsconfig.json', ...Object.keys(result.metafile.inputs)];
  const files: Stamps = {};
  for (const path of inputs) files[path] = stamp(path, startedMs) ?? '';
  mkdirSync(dirname(NODE_BUNDLE), { recursive: true });
  // Each written aside then renamed, the workers' first: a node starting meanwhile (another test process) reads whole files.
  const main = result.outputFiles.find((o) => o.path === NODE_BUNDLE)!;
  for (const out of [...result.outputFiles.filter((o) => o !== main), main]) {
    writeAside(out.path, out.contents);
    files[relative(ROOT, out.path)] = stamp(relative(ROOT, out.path))!;
  }
  writeAside(MANIFEST, JSON.stringify(files));
  built = true;
  return NODE_BUNDLE;
}

function writeAside(path: string, contents: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, contents);
  renameSync(tmp, path);
}

if (process.argv[1] === THIS_FILE) buildNodeBundle();

/**
 * `npm start` and every launcher build the node's bundles only when a file they were built from changed
 * (testnet/bundle.ts; docs/operations.md "Start-up"). Runs the build script as `npm run build` does.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NODE_BUNDLE, ROOT } from '../../testnet/bundle.ts';

const WORKER_BUNDLE = join(ROOT, 'dist/worker.mjs');
const SOURCE = join(ROOT, 'src/rpc/json.ts');

function build(): void {
  const r = spawnSync(process.execPath, ['testnet/bundle.ts'], { cwd: ROOT, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
}
const written = (path: string) => statSync(path).mtimeMs;

test('a build with nothing changed since the last one writes nothing', () => {
  build();
  const before = [written(NODE_BUNDLE), written(WORKER_BUNDLE)];
  build();
  assert.equal([written(NODE_BUNDLE), written(WORKER_BUNDLE)], before);
});

test('a source touched since the last build makes the next one write the bundles again, and only the next one', () => {
  build();
  const before = written(NODE_BUNDLE);
  const now = new Date();
  utimesSync(SOURCE, now, now);
  build();
  const rebuilt = written(NODE_BUNDLE);
  assert.ok(rebuilt > before, 'the bundle was not written again');
  assert.match(readFileSync(NODE_BUNDLE, 'utf8'), 'JSON-RPC');
  build();
  assert.is(written(NODE_BUNDLE), rebuilt);
});

test('a bundle changed since the last build is written again', () => {
  build();
  // Another build or an edit; the file stays in place, since nodes of other test files may be starting.
  const later = new Date(Date.now() + 5_000);
  utimesSync(WORKER_BUNDLE, later, later);
  build();
  assert.is.not(written(WORKER_BUNDLE), later.getTime());
  assert.ok(statSync(WORKER_BUNDLE).size > 100_000);
});

test.run();

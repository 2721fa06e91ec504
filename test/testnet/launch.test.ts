/**
 * Every launcher starts a node with Node's compile cache (COMPILE_CACHE_DIR in src/config): a node
 * started again reads the code its bundle compiled to on an earlier start instead of compiling it anew.
 * Node's own debug output (NODE_DEBUG_NATIVE=COMPILE_CACHE) says whether it accepted the cache.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { COMPILE_CACHE_DIR } from '../../src/config/index.ts';
import { NODE_BUNDLE, ROOT } from '../../testnet/bundle.ts';
import { startChildNode, tempDir } from '../helpers/node.ts';

/** Starts a node on a fresh data dir, stops it with SIGINT (a clean stop, when Node writes its cache), and returns what it printed. */
async function startAndStop(): Promise<string> {
  const dataDir = tempDir();
  try {
    const node = await startChildNode(dataDir);
    node.child.kill('SIGINT');
    // Sent at once after the ready line: the node stops cleanly all the same.
    assert.is(await node.exited, 0, node.output());
    return node.output();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

test('a node started again reads its bundle\'s compiled code from the compile cache', async () => {
  process.env.NODE_DEBUG_NATIVE = 'COMPILE_CACHE';
  const bundle = `file://${NODE_BUNDLE}`;
  const first = await startAndStop();
  // Whatever an earlier run left, the first start ends with the bundle's entry in the cache dir.
  assert.match(first, `[compile cache] reading cache from ${join(ROOT, COMPILE_CACHE_DIR)}`);
  const second = await startAndStop();
  assert.match(second, `V8 code cache for ESM ${bundle} was accepted`);
});

test.run();

/** The README's first command: `npm start` builds the node (when its sources changed), runs it, prints the dev accounts, and stops on Ctrl-C. */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NODE_RUNTIME_ENV, NODE_RUNTIME_FLAGS } from '../../src/config/index.ts';
import { tempDir } from '../helpers/node.ts';
import { rpc } from '../helpers/rpc.ts';

const root = new URL('../..', import.meta.url).pathname;

test('the start script runs the bundle with the runtime flags and environment every other launcher uses', () => {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const env = Object.entries(NODE_RUNTIME_ENV).map(([k, v]) => `${k}=${v}`).join(' ');
  assert.is(scripts.build, 'node testnet/bundle.ts');
  assert.is(scripts.start, `${scripts.build} && ${env} node ${NODE_RUNTIME_FLAGS.join(' ')} dist/main.mjs`);
});

test('npm start serves JSON-RPC, shows the development accounts, and stops cleanly on SIGINT', async () => {
  const dataDir = tempDir();
  // Its own process group, so Ctrl-C reaches npm and the node as a terminal would send it.
  const child = spawn('npm', ['start', '--', '--data-dir', dataDir, '--rpc-port', '0', '--p2p-port', '0'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true,
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const exited = new Promise<number | string | null>((r) => child.on('exit', (code, signal) => r(signal ?? code)));
  try {
    const deadline = Date.now() + 60_000;
    while (!out.includes('{"ready":true') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const ready = out.split('\n').find((l) => l.startsWith('{"ready":true'));
    assert.ok(ready, `no ready line:\n${out}`);
    assert.match(out, /\(0\) 0x[0-9a-f]{40} {2}private key 0x[0-9a-f]{64}/);
    assert.is(await rpc(JSON.parse(ready!).rpcUrl, 'eth_chainId'), '0x21');
    process.kill(-child.pid!, 'SIGINT');
    // npm passes the signal on, waits for the node, then ends the way a shell's Ctrl-C ends it.
    assert.ok(['SIGINT', 0].includes((await exited)!), `npm ended with ${await exited}`);
    // Log lines: JSON, since stdout is a pipe here.
    assert.match(out, /"actor":"main","msg":"SIGINT: stopping\.\.\."\}\n(.*\n)*\{.*"actor":"main","msg":"stopped"\}/);
  } finally {
    try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();

/**
 * A hosted node as its own process (`--hosted --api-keys <file>`): it serves only /<API_KEY>, and
 * neither its keys nor the wrong keys callers try ever appear in its output.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startChildNode, tempDir, type ChildNode } from '../helpers/node.ts';
import { post } from '../helpers/rpc.ts';

const HostedProcess = suite('hosted node process');
const KEY = 'e2e-secret-key-4f9a1c0b7d';
const WRONG = 'e2e-wrong-key-8b3e2d9a6c';
const dir = tempDir();
let node: ChildNode | undefined;
HostedProcess.after(async () => {
  node?.child.kill('SIGTERM');
  await node?.exited;
  rmSync(dir, { recursive: true, force: true });
});

const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_accounts', params: [] });

HostedProcess('serves only a known key, refuses others, holds no keys, and never prints a key', async () => {
  const keys = join(dir, 'api-keys');
  writeFileSync(keys, `${KEY}\n`);
  node = await startChildNode(join(dir, 'data'), ['--hosted', '--api-keys', keys, '--rate-limit', '2']);
  assert.match(node.output(), /Hosted mode: requests only at .*\/<API_KEY>, 1 API keys, 2 requests per minute each/);
  const good = await post(`${node.url}/${KEY}`, body);
  assert.is(good.status, 200);
  assert.equal(good.json.result, [], 'no development accounts in hosted mode');
  assert.is((await post(`${node.url}/${WRONG}`, body)).status, 403);
  assert.is((await post(node.url, body)).status, 401);
  assert.is((await post(`${node.url}/${KEY}`, body)).status, 200);
  assert.is((await post(`${node.url}/${KEY}`, body)).status, 429);
  node.child.kill('SIGTERM');
  assert.is(await node.exited, 0);
  assert.not.ok(node.output().includes(KEY), 'the key is not in the output');
  assert.not.ok(node.output().includes(WRONG), 'nor a wrong key a caller tried');
});

HostedProcess.run();

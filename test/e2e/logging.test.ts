/** Logs: JSON lines or pretty text, a child logger per actor, RPC calls at debug level, and no key or passphrase ever in them. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startChildNode, tempDir, type ChildNode } from '../helpers/node.ts';
import { post, rpc, waitUntil } from '../helpers/rpc.ts';

const Logging = suite('logging');
const KEY = '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';
const PASSPHRASE = 'correct horse battery staple';
const API_KEY = 'operator-key-0123456789';
const nodes: ChildNode[] = [];
Logging.after(async () => { for (const n of nodes) { n.child.kill('SIGKILL'); await n.exited; } });

Logging('--log-level debug --log-format json: one JSON object per line, RPC calls by method only', async () => {
  const node = await startChildNode(tempDir(), ['--log-level', 'debug', '--log-format', 'json']);
  nodes.push(node);
  await rpc(node.url, 'personal_importRawKey', [KEY, PASSPHRASE]);
  await rpc(node.url, 'personal_unlockAccount', ['0x0000000000000000000000000000000000000001', PASSPHRASE, null]).catch(() => undefined);
  const lines = () => node.output().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const call = await waitUntil(() => lines().find((l) => l.actor === 'rpc' && l.method === 'personal_importRawKey'), { what: 'the debug line of the call' });
  assert.is(call.level, 20);
  assert.is(call.outcome, 'ok');
  assert.type(call.ms, 'number');
  assert.ok(lines().some((l) => l.actor === 'main' && /JSON-RPC: http/.test(l.msg)), 'the start-up lines come from the main logger');
  assert.not.ok(node.output().includes(KEY.slice(2)), 'no private key');
  assert.not.ok(node.output().includes(PASSPHRASE), 'no passphrase');
});

Logging('pretty text on request; in hosted mode the API keys stay out of the logs', async () => {
  const keys = join(tempDir(), 'keys');
  writeFileSync(keys, `${API_KEY}\n`);
  const node = await startChildNode(tempDir(), ['--log-level', 'debug', '--log-format', 'pretty', '--hosted', '--api-keys', keys]);
  nodes.push(node);
  const res = await post(`${node.url}/${API_KEY}`, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }));
  assert.is(res.status, 200);
  await waitUntil(() => /eth_blockNumber ok/.test(node.output()), { what: 'the debug line of the call' });
  assert.match(node.output(), /\[main\] JSON-RPC: http/);
  assert.not.match(node.output(), /^\{"level"/m);
  assert.not.ok(node.output().includes(API_KEY));
});

Logging.run();

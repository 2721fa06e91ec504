/**
 * Hosted mode: only /<API_KEY> with a known key is served (401 without a key, 403 with an unknown
 * one, both with a JSON-RPC error body), the node holds no keys, and each key has its own
 * request-rate allowance (simulated clock for the refill, a real node for the 429).
 */
import { ethers } from 'ethers';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, parseConfig } from '../../src/config/index.ts';
import { HostedGate } from '../../src/rpc/hosted.ts';
import { loadApiKeys } from '../../src/rpc/options.ts';
import { defaultSwitches, isCallable } from '../../src/rpc/switches.ts';
import { startTestNode, tempDir, type TestNode } from '../helpers/node.ts';
import { post, waitUntil } from '../helpers/rpc.ts';

const Hosted = suite('hosted mode');
const KEY = 'k3y-for-tests_0123456789';
const OTHER_KEY = 'another-key-abcdefghijklmnop';
const nodes: TestNode[] = [];
Hosted.after(async () => { for (const n of nodes.reverse()) await n.stop(); });
const start = async (requestsPerMinute: number) => {
  const n = await startTestNode({ hosted: { apiKeys: new Set([KEY, OTHER_KEY]), requestsPerMinute } });
  nodes.push(n);
  return n;
};
let shared: Promise<TestNode> | undefined;
const node = () => (shared ??= start(10_000));

const body = (method: string, params: unknown[] = [], id = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });
const at = async (path: string, method: string, params: unknown[] = []) => post(`${(await node()).url}${path}`, body(method, params));

Hosted('no key: HTTP 401; an unknown key: HTTP 403; both with a JSON-RPC error that does not echo the key', async () => {
  for (const [path, status, message] of [['/', 401, /missing API key/], ['', 401, /missing API key/], ['/not-a-known-key-at-all', 403, /unknown API key/]] as const) {
    const res = await at(path, 'eth_chainId');
    assert.is(res.status, status, path);
    assert.is(res.json.jsonrpc, '2.0');
    assert.is(res.json.id, null);
    assert.is(res.json.error.code, -32600);
    assert.match(res.json.error.message, message);
    assert.not.match(res.text, /not-a-known-key-at-all/);
  }
  const ok = await at(`/${KEY}`, 'eth_chainId');
  assert.is(ok.status, 200);
  assert.is(ok.json.result, '0x21');
  assert.is((await at(`/${OTHER_KEY}/`, 'eth_chainId')).json.result, '0x21');
});

Hosted('the hosted markers: eth_call needs its block (-32602 naming it); eth_estimateGas without `to` stays served (README, Deviations)', async () => {
  const dev = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
  const { json } = await at(`/${KEY}`, 'eth_call', [{ to: dev }]);
  assert.is(json.error.code, -32602);
  assert.match(json.error.message, /^missing argument 1 \(block\): the hosted endpoint requires the block selector of eth_call/);
  assert.is((await at(`/${KEY}`, 'eth_call', [{ to: dev }, 'latest'])).json.result, '0x');
  // A creation estimate (ethers, viem and web3.js deployments send no `to`).
  assert.match((await at(`/${KEY}`, 'eth_estimateGas', [{ from: dev, data: '0x60006000f3' }])).json.result, /^0x[0-9a-f]+$/);
});

Hosted('the node holds no keys: eth_accounts [], signing methods and personal_* are not served; raw transactions work, sync ones too', async () => {
  assert.equal((await at(`/${KEY}`, 'eth_accounts')).json.result, []);
  const dev = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
  for (const [method, params] of [
    ['eth_sign', [dev, '0x00']], ['eth_sendTransaction', [{ from: dev, to: dev }]], ['eth_sendTransactionSync', [{ from: dev, to: dev }]],
    ['personal_newAccount', []], ['personal_unlockAccount', []],
  ] as const) {
    const { json } = await at(`/${KEY}`, method, [...params]);
    assert.is(json.error.code, -32601, method);
    assert.match(json.error.message, /does not exist\/is not available/);
  }
  assert.equal((await at(`/${KEY}`, 'eth_pendingTransactions')).json.result, []);
  const wallet = new ethers.Wallet('0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d');
  const raw = await wallet.signTransaction({ type: 0, chainId: 33, nonce: 0, gasPrice: 0, gasLimit: 21_000, to: dev, value: 1n });
  const sent = await at(`/${KEY}`, 'eth_sendRawTransaction', [raw]);
  const receipt = await waitUntil(async () => (await at(`/${KEY}`, 'eth_getTransactionReceipt', [sent.json.result])).json.result, { what: 'the receipt' });
  assert.is(receipt.status, '0x1');
  const next = await wallet.signTransaction({ type: 0, chainId: 33, nonce: 1, gasPrice: 0, gasLimit: 21_000, to: dev, value: 1n });
  assert.is((await at(`/${KEY}`, 'eth_sendRawTransactionSync', [next])).json.result.status, '0x1', 'the sync send of a raw transaction is served');
});

Hosted('by default only eth, net, web3 and rpc are served, on every network, and rpc_modules says exactly that', async () => {
  assert.equal((await at(`/${KEY}`, 'rpc_modules')).json.result, { web3: '1.0', net: '1.0', eth: '1.0', rpc: '1.0' });
  const before = (await at(`/${KEY}`, 'eth_blockNumber')).json.result;
  for (const [method, params] of [
    ['evm_reset', []], ['evm_snapshot', []], ['sco_banAddress', ['127.0.0.2']], ['debug_traceBlockByNumber', ['latest']],
    ['trace_block', ['latest']], ['mnr_getWork', []], ['txpool_content', []], ['chain_getRawBlockHeaderByNumber', ['latest']],
  ] as const) {
    const { json } = await at(`/${KEY}`, method, [...params]);
    assert.is(json.error?.code, -32601, method);
    assert.match(json.error.message, /module is disabled/, method);
  }
  assert.is((await at(`/${KEY}`, 'eth_blockNumber')).json.result, before, 'evm_reset changed nothing');
  for (const network of ['regtest', 'testnet', 'mainnet'] as const) {
    const s = defaultSwitches(network, true);
    assert.equal(Object.entries(s).filter(([, v]) => v.enabled).map(([m]) => m).sort(), ['eth', 'net', 'rpc', 'web3'], network);
  }
});

Hosted('other modules only when named; personal never', async () => {
  const dir = tempDir();
  const file = join(dir, 'keys');
  writeFileSync(file, `${KEY}\n`);
  const named = parseConfig(['--hosted', '--api-keys', file, '--rpc-modules', 'eth,net,web3,rpc,debug', '--rpc-enable-methods', 'txpool_status']);
  assert.ok(isCallable(named.rpcModules!, 'debug_traceTransaction') && isCallable(named.rpcModules!, 'txpool_status'));
  assert.not.ok(isCallable(named.rpcModules!, 'txpool_content') || isCallable(named.rpcModules!, 'eth_sign'));
  writeFileSync(join(dir, 'rpc.json'), JSON.stringify({ modules: { personal: { enabled: true } } }));
  for (const argv of [['--rpc-modules', 'eth,personal'], ['--rpc-enable-methods', 'personal_newAccount'], ['--rpc-config', join(dir, 'rpc.json')]]) {
    assert.throws(() => parseConfig(['--hosted', '--api-keys', file, ...argv]), (e: Error) => e instanceof ConfigError && /cannot serve the personal module/.test(e.message), argv.join(' '));
  }
});

Hosted('the rate limit: a key past its allowance gets HTTP 429 with -32005 and Retry-After; other keys are unaffected', async () => {
  const n = await start(5);
  const send = (key: string, payload: string) => fetch(`${n.url}/${key}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
  const batch = JSON.stringify([1, 2, 3].map((id) => JSON.parse(body('eth_blockNumber', [], id))));
  assert.is((await send(KEY, batch)).status, 200, 'a batch of 3 counts 3');
  assert.is((await send(KEY, body('eth_chainId'))).status, 200);
  assert.is((await send(KEY, body('eth_chainId'))).status, 200);
  const refused = await send(KEY, body('eth_chainId'));
  assert.is(refused.status, 429);
  assert.match(refused.headers.get('retry-after') ?? '', /^\d+$/);
  const json = await refused.json() as { error: { code: number; message: string } };
  assert.is(json.error.code, -32005);
  assert.match(json.error.message, /rate limit exceeded: this API key may send 5 requests per minute/);
  assert.not.match(json.error.message, new RegExp(KEY));
  assert.is((await send(OTHER_KEY, body('eth_chainId'))).status, 200);
});

Hosted('token buckets refill with time; a batch larger than a minute\'s allowance is refused outright', () => {
  let now = 0;
  const gate = new HostedGate({ apiKeys: new Set([KEY]), requestsPerMinute: 60 }, () => now);
  assert.equal(gate.admit(`/${KEY}`), { key: KEY });
  assert.is(gate.charge(KEY, 60), undefined);
  assert.is(gate.charge(KEY, 1)?.status, 429);
  assert.is(gate.charge(KEY, 1)?.retryAfterSec, 1);
  now += 10_000;
  assert.is(gate.charge(KEY, 10), undefined, '10 s refill 10 requests');
  assert.is(gate.charge(KEY, 1)?.status, 429);
  now += 3_600_000;
  assert.is(gate.charge(KEY, 60), undefined, 'never more than a minute\'s worth');
  assert.match(gate.charge(KEY, 61)!.message, /a batch of 61 requests is more than this API key may send in a minute/);
});

Hosted('--hosted needs --api-keys; key files are checked without printing keys', () => {
  const dir = tempDir();
  const file = join(dir, 'keys');
  writeFileSync(file, `# operators\n${KEY}\n\n${OTHER_KEY}  # second\n`);
  assert.equal([...loadApiKeys(file)], [KEY, OTHER_KEY]);
  const c = parseConfig(['--hosted', '--api-keys', file, '--rate-limit', '120']);
  assert.equal(c.hosted, { apiKeys: new Set([KEY, OTHER_KEY]), requestsPerMinute: 120 });
  assert.is(parseConfig(['--hosted', '--api-keys', file]).hosted!.requestsPerMinute, 600);
  writeFileSync(join(dir, 'short'), 'short-secret\n');
  writeFileSync(join(dir, 'empty'), '# nothing\n');
  for (const [argv, message] of [
    [['--hosted'], /--hosted and --api-keys/],
    [['--api-keys', file], /--hosted and --api-keys/],
    [['--hosted', '--api-keys', file, '--rate-limit', '0'], /--rate-limit/],
    [['--hosted', '--api-keys', join(dir, 'short')], /line 1: not a valid key/],
    [['--hosted', '--api-keys', join(dir, 'empty')], /holds no keys/],
  ] as const) {
    assert.throws(() => parseConfig([...argv]), (e: Error) => e instanceof ConfigError && message.test(e.message) && !e.message.includes('short-secret'));
  }
});

Hosted.run();

/**
 * The RPC listener actor on a fake method table (no node): it serves HTTP and WebSocket on the
 * loopback port it reports, routes calls to the methods it was given, pushes the live events it is
 * told to WebSocket subscribers in order (a push that fails costs that event, not the listener),
 * and stopping closes its port and its connections. A port in use fails its start with the error
 * the node turns into its "already in use" message. The transport's own rules (limits, envelopes,
 * subscriptions) are test/rpc's other suites.
 */
import { connect as connectTcp } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { ActorStoppedError, type Actor } from '../../../src/actors/kernel/index.ts';
import type { LiveEvent } from '../../../src/actors/liveEvents.ts';
import type { Block } from '../../../src/chain/codec/block.ts';
import type { Hex } from '../../../src/chain/codec/bytes.ts';
import type { LiveLogSource } from '../../../src/chain/logs/liveLogs.ts';
import { configureLogging } from '../../../src/log.ts';
import { RpcError } from '../../../src/rpc/errors.ts';
import { spawnRpcListener, type RpcListenerProtocol } from '../../../src/rpc/listener/index.ts';
import type { Methods } from '../../../src/rpc/method.ts';
import { defaultSwitches } from '../../../src/rpc/switches.ts';
import { portError } from '../../../src/startup.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';
import { post, within } from '../../helpers/rpc.ts';

configureLogging('fatal'); // the failed push below is logged as an error: its log is not this test's output

const Listener = suite('RPC listener actor');
const txHash = (byte: number) => `0x${byte.toString(16).padStart(2, '0').repeat(32)}` as Hex;

/** A method table of two fakes: test_echo answers its argument, test_refuse fails; each call is recorded. */
function fakeMethods(calls: unknown[][]): Methods {
  return {
    test_echo: { paramCount: 1, async call(params) { calls.push(params); return params[0]; } },
    test_refuse: { paramCount: 0, async call(params) { calls.push(params); throw new RpcError(-32000, 'refused by the fake'); } },
  };
}

/** A log source that cannot read: every `logs` subscription's push fails. */
const brokenLogs = { changes: async () => { throw new Error('the fake log source cannot read'); } } as unknown as LiveLogSource;

interface Running {
  readonly listener: Actor<RpcListenerProtocol>;
  readonly url: string;
  readonly wsUrl: string;
  readonly port: number;
  readonly calls: unknown[][];
  readonly observed: [string, string][];
}

let chain: TestChain;
const running: Actor<RpcListenerProtocol>[] = [];
Listener.before(async () => { chain = await openTestChain(); });
Listener.after(async () => {
  for (const l of running) await within(l.stop(), 'a listener stopping').catch(() => {}); // a listener that cannot stop failed its own test
  await chain.close();
});

async function startListener(port = 0): Promise<Running> {
  const calls: unknown[][] = [];
  const observed: [string, string][] = [];
  const listener = spawnRpcListener({
    methods: fakeMethods(calls), switches: defaultSwitches('regtest'), host: '127.0.0.1', port, gate: undefined,
    reader: chain.reader, logs: brokenLogs, observe: (method, outcome) => observed.push([method, outcome]),
  });
  running.push(listener);
  await listener.ready;
  const address = await listener.ref.ask('listener.address', {});
  assert.is(address.address, '127.0.0.1');
  return { listener, url: `http://127.0.0.1:${address.port}`, wsUrl: `ws://127.0.0.1:${address.port}`, port: address.port, calls, observed };
}

/** A WebSocket client whose messages arrive, in order, through `next()`. */
async function wsClient(url: string) {
  const ws = new WebSocket(url);
  const inbox: any[] = [];
  const waiting: ((m: any) => void)[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    const w = waiting.shift();
    if (w) w(m); else inbox.push(m);
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const next = (): Promise<any> => within(inbox.length ? Promise.resolve(inbox.shift()) : new Promise((resolve) => waiting.push(resolve)), 'the next WebSocket message');
  let id = 0;
  const request = (method: string, params: unknown[] = []) => {
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }));
    return next();
  };
  const closed = new Promise<number>((resolve) => ws.once('close', resolve));
  return { ws, next, request, closed };
}

const call = (method: string, params: unknown[] = [], id: number | string = 1) => JSON.stringify({ jsonrpc: '2.0', id, method, params });

Listener('HTTP on the loopback port it reports: calls reach the methods given, others are -32601, each call is observed', async () => {
  const l = await startListener();
  assert.ok(l.port > 0, 'port 0 asks for a free port; the listener reports the one it got');
  assert.equal((await post(l.url, call('test_echo', ['hello']))).json, { jsonrpc: '2.0', id: 1, result: 'hello' });
  const refused = (await post(l.url, call('test_refuse', [], 2))).json;
  assert.equal(refused.error, { code: -32000, message: 'refused by the fake' });
  const missing = (await post(l.url, call('eth_blockNumber', [], 3))).json;
  assert.is(missing.error.code, -32601, 'only the methods given are served');
  const batch = (await post(l.url, JSON.stringify([JSON.parse(call('test_echo', [1], 'a')), JSON.parse(call('test_echo', [2], 'b'))]))).json;
  assert.equal(batch.map((r: { id: string; result: number }) => [r.id, r.result]), [['a', 1], ['b', 2]]);
  assert.equal(l.calls, [['hello'], [], [1], [2]]);
  assert.equal(l.observed, [['test_echo', 'ok'], ['test_refuse', 'error'], ['unknown', 'error'], ['test_echo', 'ok'], ['test_echo', 'ok']]);
});

Listener('WebSocket on the same port: calls reach the methods given; told live events are pushed to subscribers in order', async () => {
  const l = await startListener();
  const c = await wsClient(l.wsUrl);
  assert.equal(await c.request('test_echo', [[1, 'two']]), { jsonrpc: '2.0', id: 1, result: [1, 'two'] });
  assert.is((await c.request('eth_chainId')).error.code, -32601);
  const pending = (await c.request('eth_subscribe', ['newPendingTransactions'])).result;
  const heads = (await c.request('eth_subscribe', ['newHeads'])).result;

  const genesis = (await chain.reader.canonicalBlock(0n))!;
  const block = await chain.emptyChildOf(genesis);
  const events: LiveEvent[] = [
    { type: 'pool.txAdded', hash: txHash(1) },
    { type: 'chain.headChanged', added: [genesis, block] as Block[], removed: [] },
    { type: 'pool.txAdded', hash: txHash(2) },
    { type: 'pool.txAdded', hash: txHash(3) },
  ];
  for (const e of events) l.listener.ref.tell(e);
  const got = [];
  for (let i = 0; i < 5; i++) {
    const m = await c.next();
    assert.is(m.method, 'eth_subscription');
    got.push(m.params.subscription === pending ? ['tx', m.params.result] : m.params.subscription === heads ? ['head', m.params.result.number] : ['?']);
  }
  assert.equal(got, [['tx', txHash(1)], ['head', '0x0'], ['head', '0x1'], ['tx', txHash(2)], ['tx', txHash(3)]]);
  assert.equal(l.calls, [[[1, 'two']]]);
  c.ws.close();
});

Listener('a live event whose push fails costs that event only: the listener goes on pushing and serving', async () => {
  const l = await startListener();
  const c = await wsClient(l.wsUrl);
  const logs = (await c.request('eth_subscribe', ['logs', {}])).result;
  const pending = (await c.request('eth_subscribe', ['newPendingTransactions'])).result;
  assert.ok(logs && pending);
  const genesis = (await chain.reader.canonicalBlock(0n))!;
  l.listener.ref.tell({ type: 'chain.headChanged', added: [genesis], removed: [] }); // the logs push fails
  l.listener.ref.tell({ type: 'pool.txAdded', hash: txHash(9) });
  const m = await c.next();
  assert.equal([m.params.subscription, m.params.result], [pending, txHash(9)]);
  assert.equal((await post(l.url, call('test_echo', ['still here']))).json.result, 'still here');
  c.ws.close();
});

Listener('stopping closes the port and the connections open on it; the actor then refuses asks', async () => {
  const l = await startListener();
  const c = await wsClient(l.wsUrl);
  assert.is((await c.request('test_echo', [1])).result, 1);
  // An HTTP request whose body has not all arrived yet: closing the server alone would wait for it.
  const halfway = connectTcp(l.port, '127.0.0.1');
  await new Promise((resolve) => halfway.once('connect', resolve));
  halfway.on('error', () => {}); // reset by the server: what is expected
  const halfwayClosed = new Promise((resolve) => halfway.once('close', resolve));
  halfway.write('POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"jsonrpc":');

  await within(l.listener.stop(), 'the listener stopping');
  await within(c.closed, 'the WebSocket closing');
  await within(halfwayClosed, 'the unfinished HTTP request\'s connection closing');
  const refused = await fetch(l.url, { method: 'POST', body: call('test_echo', [3]) }).then(() => undefined, (err: Error & { cause?: { code?: string } }) => err.cause?.code);
  assert.is(refused, 'ECONNREFUSED', 'nothing listens on the port any more');
  assert.instance(await l.listener.ref.ask('listener.address', {}).catch((e) => e), ActorStoppedError);
});

Listener('a port in use: the listener does not start, with the error the node reports as "RPC port … is already in use"', async () => {
  const first = await startListener();
  const second = spawnRpcListener({
    methods: fakeMethods([]), switches: defaultSwitches('regtest'), host: '127.0.0.1', port: first.port, gate: undefined, reader: chain.reader, logs: brokenLogs,
  });
  const err = await second.ready.then(() => undefined, (e: unknown) => e);
  assert.ok(err, 'the second listener must not start');
  assert.is((err as { code?: string }).code, 'EADDRINUSE');
  assert.match(portError(err, 'RPC', '--rpc-port', '127.0.0.1', first.port).message,
    `RPC port 127.0.0.1:${first.port} is already in use by another program: stop it, or choose another port with --rpc-port`);
  await second.stop();
  assert.equal((await post(first.url, call('test_echo', ['first']))).json.result, 'first', 'the first listener serves on');
});

Listener.run();

/**
 * WsHub (src/rpc/ws.ts) on its own: an HTTP server on loopback, a standalone chain, a method table of
 * one method, and the `ws` client. Calls and parse errors, the upgrade path, subscriptions and their
 * notifications (published here by hand), unsubscribing, and the per-connection subscription limit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { hex } from '../../src/chain/codec/bytes.ts';
import { LiveLogSource } from '../../src/chain/logs/liveLogs.ts';
import { method } from '../../src/rpc/method.ts';
import { defaultSwitches } from '../../src/rpc/switches.ts';
import { MAX_SUBSCRIPTIONS, WsHub } from '../../src/rpc/ws.ts';
import { openTestChain, type TestChain } from '../helpers/chain.ts';

const TX_HASH = `0x${'cd'.repeat(32)}` as const;

let server: Server | undefined;
let hub: WsHub | undefined;
let chain: TestChain | undefined;
let base = '';

/** The hub on a fresh HTTP server, serving one method (`eth_echo`, which answers its argument) and the subscription methods. */
async function setup() {
  if (hub) return hub;
  chain = await openTestChain();
  server = createServer();
  const methods = { eth_echo: method([['value', (raw: unknown) => raw]], ([v]) => v) };
  hub = new WsHub(server, methods, { reader: chain.reader, logs: new LiveLogSource(chain.reader), switches: defaultSwitches('regtest') });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  base = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return hub;
}

/** A connected client whose messages arrive, in order, through `next()`. */
async function connect(path = '/') {
  const ws = new WebSocket(`${base}${path}`);
  const inbox: unknown[] = [];
  const waiting: ((m: unknown) => void)[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    const w = waiting.shift();
    if (w) w(m); else inbox.push(m);
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const next = () => (inbox.length ? Promise.resolve(inbox.shift()) : new Promise<unknown>((resolve) => waiting.push(resolve))) as Promise<any>;
  let id = 0;
  const request = async (m: string, params: unknown[] = []) => {
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: ++id, method: m, params }));
    return next();
  };
  return { ws, next, request };
}

const Ws = suite('WsHub');
Ws.after(async () => {
  hub?.close();
  await new Promise((resolve) => server?.close(resolve));
  await chain?.close();
});

Ws('a call is answered on the socket; text that is not JSON is a parse error with id null', async () => {
  await setup();
  const c = await connect();
  assert.equal(await c.request('eth_echo', [[1, 'two']]), { jsonrpc: '2.0', id: 1, result: [1, 'two'] });
  c.ws.send('{"jsonrpc": ');
  const err = await c.next();
  assert.equal([err.id, err.error.code], [null, -32700]);
  assert.equal(await c.request('eth_echo', ['still serving']), { jsonrpc: '2.0', id: 2, result: 'still serving' });
  c.ws.close();
});

Ws('an upgrade at a path that is not an RPC endpoint is refused with 404', async () => {
  await setup();
  const ws = new WebSocket(`${base}/not/an/endpoint`);
  const status = await new Promise<number | undefined>((resolve) => {
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode));
    ws.once('open', () => resolve(undefined));
  });
  assert.is(status, 404);
  ws.on('error', () => undefined); // terminating a socket that never opened reports it
  ws.terminate();
});

Ws('newPendingTransactions and newHeads: notifications carry the subscription id; a head is the header without transactions', async () => {
  const h = await setup();
  const c = await connect();
  const pending = (await c.request('eth_subscribe', ['newPendingTransactions'])).result;
  const heads = (await c.request('eth_subscribe', ['newHeads'])).result;
  assert.match(pending, /^0x[0-9a-f]+$/);
  assert.is.not(pending, heads);
  await h.publish({ type: 'pool.txAdded', hash: TX_HASH });
  assert.equal(await c.next(), { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: pending, result: TX_HASH } });
  const genesis = (await chain!.reader.canonicalBlock(0n))!;
  await h.publish({ type: 'chain.headChanged', added: [genesis], removed: [] });
  const head = await c.next();
  assert.is(head.params.subscription, heads);
  assert.is(head.params.result.hash, hex(genesis.hash));
  assert.is(head.params.result.number, '0x0');
  assert.equal(['transactions' in head.params.result, 'uncles' in head.params.result], [false, false]);
  c.ws.close();
});

Ws('eth_unsubscribe: true, then false; no notification follows it', async () => {
  const h = await setup();
  const c = await connect();
  const id = (await c.request('eth_subscribe', ['newPendingTransactions'])).result;
  assert.is((await c.request('eth_unsubscribe', [id])).result, true);
  assert.is((await c.request('eth_unsubscribe', [id])).result, false);
  await h.publish({ type: 'pool.txAdded', hash: TX_HASH });
  // Messages arrive in order: had the publish notified, its notification would come before this reply.
  assert.is((await c.request('eth_echo', ['after'])).result, 'after');
  c.ws.close();
});

Ws('bad subscriptions are -32602: an unknown kind, options where none are taken, a bad logs filter', async () => {
  await setup();
  const c = await connect();
  const cases: [unknown[], RegExp][] = [
    [['blocks'], /unknown subscription "blocks"/],
    [['newHeads', { includeTransactions: true }], /newHeads takes no options/],
    [['logs', { address: '0x12' }], /address/],
  ];
  for (const [params, message] of cases) {
    const { error } = await c.request('eth_subscribe', params);
    assert.is(error.code, -32602, JSON.stringify(params));
    assert.match(error.message, message);
  }
  c.ws.close();
});

Ws(`a connection holds at most ${MAX_SUBSCRIPTIONS} subscriptions; another connection is not affected`, async () => {
  await setup();
  const c = await connect();
  for (let i = 0; i < MAX_SUBSCRIPTIONS; i++) assert.ok((await c.request('eth_subscribe', ['newHeads'])).result);
  const { error } = await c.request('eth_subscribe', ['newHeads']);
  assert.is(error.code, -32602);
  assert.match(error.message, /too many subscriptions/);
  const other = await connect();
  assert.ok((await other.request('eth_subscribe', ['newHeads'])).result);
  c.ws.close();
  other.ws.close();
});

Ws.run();

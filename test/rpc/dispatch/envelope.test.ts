/** JSON-RPC 2.0 envelope and HTTP transport over raw HTTP: ids, batches, notifications, parse/request errors, limits. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, type TestNode } from '../../helpers/node.ts';
import { post } from '../../helpers/rpc.ts';

let node: TestNode | undefined;
let starting: Promise<TestNode> | undefined;
/** The node, started on first use inside a test. */
const url = async () => (await (starting ??= startTestNode().then((n) => (node = n)))).url;

const req = (id: unknown, method = 'eth_chainId', params: unknown[] = []) => ({ jsonrpc: '2.0', id, method, params });
const send = async (body: unknown) => post(await url(), typeof body === 'string' ? body : JSON.stringify(body));

/** After a bad input the node must still serve ordinary requests. */
async function assertAlive() {
  const { status, json } = await send(req(99, 'eth_blockNumber'));
  assert.is(status, 200);
  assert.match(json.result, /^0x[0-9a-f]+$/);
}

/** A single error reply: the envelope is complete (jsonrpc, id) and the code is the expected one. */
function assertError(reply: any, code: number, id: unknown = null) {
  assert.type(reply, 'object', `expected an error object, got ${JSON.stringify(reply)}`);
  assert.is(reply.jsonrpc, '2.0');
  assert.ok('id' in reply, 'error reply has an id member');
  assert.is(reply.id, id);
  assert.not.ok('result' in reply, 'an error reply has no result');
  assert.is(reply.error?.code, code, JSON.stringify(reply));
  assert.type(reply.error.message, 'string');
  assert.ok(reply.error.message.length > 0);
}

const Envelope = suite('JSON-RPC envelope');
Envelope.after(async () => { await node?.stop(); });

Envelope('a success reply is jsonrpc 2.0 with the id and a result', async () => {
  const { status, json } = await send(req(1));
  assert.is(status, 200);
  assert.equal(json, { jsonrpc: '2.0', id: 1, result: '0x21' });
});

Envelope('the id is echoed exactly: numbers, strings, 0, null', async () => {
  for (const id of [0, 1, -1, 42, 9007199254740991, 'abc', '', '0x1', 'ünïcødé', null]) {
    const { json } = await send(req(id));
    assert.is(json.id, id, `id ${JSON.stringify(id)}`);
    assert.is(json.jsonrpc, '2.0');
    assert.is(json.result, '0x21');
  }
  // also on errors
  const { json } = await send(req('err-id', 'no_such_method'));
  assert.is(json.id, 'err-id');
});

Envelope('an id beyond 2^53 is echoed digit for digit', async () => {
  // 64-bit ids (e.g. random uint64 from Go/Rust clients) must come back unchanged so the client can match the reply.
  const { text } = await send('{"jsonrpc":"2.0","id":18446744073709551615,"method":"eth_chainId","params":[]}');
  assert.match(text, /"id":18446744073709551615[,}]/, text);
});

Envelope('a request without params is accepted for a method without parameters', async () => {
  const { json } = await send({ jsonrpc: '2.0', id: 3, method: 'net_version' });
  assert.equal(json, { jsonrpc: '2.0', id: 3, result: '33' });
});

Envelope('a notification (no id) runs but produces no reply body', async () => {
  const { status, text } = await send({ jsonrpc: '2.0', method: 'eth_blockNumber', params: [] });
  assert.ok(status === 200 || status === 204, `status ${status}`);
  assert.is(text, '');
  // A notification of an unknown method is not answered either.
  const bad = await send({ jsonrpc: '2.0', method: 'no_such_method', params: [] });
  assert.is(bad.text, '');
  await assertAlive();
});

Envelope('a batch is answered in order, with successes and errors mixed', async () => {
  const { status, json } = await send([req(1, 'net_version'), req('two', 'no_such_method'), req(3, 'eth_chainId'), req(4, 'eth_getBalance', ['0x12'])]);
  assert.is(status, 200);
  assert.ok(Array.isArray(json));
  assert.is(json.length, 4);
  assert.equal(json[0], { jsonrpc: '2.0', id: 1, result: '33' });
  assertError(json[1], -32601, 'two');
  assert.equal(json[2], { jsonrpc: '2.0', id: 3, result: '0x21' });
  assertError(json[3], -32602, 4);
});

Envelope('notifications inside a batch get no entry; a batch of only notifications gets no body', async () => {
  const { json } = await send([req(1, 'net_version'), { jsonrpc: '2.0', method: 'eth_chainId', params: [] }, req(2, 'eth_chainId')]);
  assert.equal(json.map((r: any) => r.id), [1, 2]);
  const only = await send([{ jsonrpc: '2.0', method: 'eth_chainId', params: [] }, { jsonrpc: '2.0', method: 'net_version' }]);
  assert.is(only.text, '');
});

Envelope('a batch of 100 is served', async () => {
  const batch = Array.from({ length: 100 }, (_, i) => req(i, i % 2 ? 'eth_chainId' : 'net_version'));
  const { status, json } = await send(batch);
  assert.is(status, 200);
  assert.is(json.length, 100);
  json.forEach((r: any, i: number) => {
    assert.is(r.id, i);
    assert.is(r.result, i % 2 ? '0x21' : '33');
  });
});

Envelope('a batch of 101 is one -32600 error with jsonrpc and id null', async () => {
  const batch = Array.from({ length: 101 }, (_, i) => req(i));
  const { json } = await send(batch);
  assert.not.ok(Array.isArray(json), 'the whole batch is refused with a single error');
  assertError(json, -32600, null);
  assert.match(json.error.message, '100');
  await assertAlive();
});

Envelope('an empty batch is a -32600 error', async () => {
  const { json } = await send('[]');
  assertError(json, -32600, null);
  await assertAlive();
});

Envelope('malformed JSON is -32700 with id null, and the node keeps serving', async () => {
  for (const body of ['{"jsonrpc":"2.0","id":1,"method":"eth_chainId"', '{not json}', 'nul', '[{"jsonrpc":"2.0","id":1,]', '']) {
    const { status, json } = await send(body);
    assert.ok(status >= 200 && status < 500, `status ${status}`);
    assertError(json, -32700, null);
    await assertAlive();
  }
});

Envelope('a request that is not an object is -32600', async () => {
  for (const body of ['1', '"eth_chainId"', 'true', 'null']) {
    const { json } = await send(body);
    assertError(json, -32600, null);
  }
  // inside a batch each bad element gets its own error
  const { json } = await send('[1, "x", {"jsonrpc":"2.0","id":5,"method":"eth_chainId","params":[]}]');
  assert.is(json.length, 3);
  assertError(json[0], -32600, null);
  assertError(json[1], -32600, null);
  assert.equal(json[2], { jsonrpc: '2.0', id: 5, result: '0x21' });
  await assertAlive();
});

Envelope('a request without jsonrpc is -32600, a notification too', async () => {
  const { json } = await send({ id: 8, method: 'eth_chainId', params: [] });
  assertError(json, -32600, 8);
  assert.match(json.error.message, /jsonrpc member is missing/);
  assertError((await send({ method: 'eth_chainId', params: [] })).json, -32600, null);
  await assertAlive();
});

Envelope('a wrong jsonrpc version is -32600 with the id', async () => {
  for (const version of ['1.0', '3.0', 2, '']) {
    const { json } = await send({ jsonrpc: version, id: 8, method: 'eth_chainId', params: [] });
    assertError(json, -32600, 8);
  }
  await assertAlive();
});

Envelope('a method that is not a string (or missing) is -32600', async () => {
  for (const method of [123, null, ['eth_chainId'], { name: 'eth_chainId' }, undefined]) {
    const { json } = await send({ jsonrpc: '2.0', id: 9, method, params: [] });
    assertError(json, -32600, 9);
  }
  await assertAlive();
});

Envelope('an id that is an object or array is -32600', async () => {
  for (const id of [{ a: 1 }, [1], true]) {
    const { json } = await send({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] });
    assertError(json, -32600, null);
  }
});

Envelope('params given as an object are refused with -32602', async () => {
  const { json } = await send({ jsonrpc: '2.0', id: 10, method: 'eth_getBalance', params: { address: '0x0000000000000000000000000000000000000000' } });
  assertError(json, -32602, 10);
});

Envelope('params that are neither an array nor an object make a bad envelope: -32600', async () => {
  for (const params of ['0x1', 7, true, null]) {
    const { json } = await send({ jsonrpc: '2.0', id: 11, method: 'eth_getBalance', params });
    assertError(json, -32600, 11);
  }
});

Envelope('an unknown method is -32601 naming the method', async () => {
  for (const method of ['eth_noSuchThing', 'shh_version', 'toString', '__proto__', 'constructor', 'hasOwnProperty']) {
    const { status, json } = await send(req(11, method));
    assert.is(status, 200);
    assertError(json, -32601, 11);
    assert.match(json.error.message, method);
  }
  await assertAlive();
});

Envelope('a body over 5 MiB is refused with HTTP 413 and a JSON-RPC error', async () => {
  const big = JSON.stringify(req(12, 'web3_sha3', [`0x${'ab'.repeat(3 * 1024 * 1024)}`]));
  assert.ok(big.length > 5 * 1024 * 1024);
  const { status, json } = await send(big);
  assert.is(status, 413);
  assertError(json, -32600, null);
  assert.match(json.error.message, /limit|large|exceeds/i);
  await assertAlive();
});

Envelope('a body just under 5 MiB is served', async () => {
  const hexLen = 5 * 1024 * 1024 - 200;
  const body = JSON.stringify(req(13, 'web3_sha3', [`0x${'ab'.repeat(hexLen / 2 - 1)}`]));
  assert.ok(body.length < 5 * 1024 * 1024);
  const { status, json } = await send(body);
  assert.is(status, 200);
  assert.match(json.result, /^0x[0-9a-f]{64}$/);
});

Envelope('a wrong content-type is refused with HTTP 415', async () => {
  const body = JSON.stringify(req(14));
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/html; charset=utf-8']) {
    const { status, json } = await post(await url(), body, { 'content-type': type });
    assert.is(status, 415, type);
    assert.is(json.jsonrpc, '2.0');
    assert.type(json.error?.code, 'number');
  }
  // JSON with a charset and application/json-rpc are fine
  for (const type of ['application/json; charset=utf-8', 'application/json-rpc', 'Application/JSON']) {
    const { status, json } = await post(await url(), body, { 'content-type': type });
    assert.is(status, 200, type);
    assert.is(json.result, '0x21');
  }
});

Envelope('GET is refused with HTTP 405', async () => {
  const res = await fetch(await url(), { method: 'GET' });
  assert.is(res.status, 405);
  const json = (await res.json()) as any;
  assert.is(json.jsonrpc, '2.0');
  assert.type(json.error?.code, 'number');
  for (const method of ['PUT', 'DELETE']) {
    const r = await fetch(await url(), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(req(1)) });
    assert.is(r.status, 405, method);
    await r.text();
  }
  await assertAlive();
});

Envelope('the hosted path form /<API_KEY> is served', async () => {
  const { status, json } = await post(`${await url()}/my-api-key_1`, JSON.stringify(req(15)));
  assert.is(status, 200);
  assert.is(json.result, '0x21');
});

Envelope('CORS preflight is answered so browser dApps can call', async () => {
  const res = await fetch(await url(), { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' } });
  assert.ok(res.status === 200 || res.status === 204, `status ${res.status}`);
  assert.ok(res.headers.get('access-control-allow-origin'), 'allow-origin header');
  assert.match(res.headers.get('access-control-allow-methods') ?? '', 'POST');
});

Envelope.run();

/**
 * Hostile parameters get -32602 naming the parameter, never -32603 (docs/hardening.md "Hostile input"):
 * transactions the node would sign with a nonce or gas beyond 64 bits or gas × gas price beyond 256 bits,
 * a call moving more than its caller holds, a tracer option that cannot be turned into text, params nested
 * 100,000 deep. The node keeps serving.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../helpers/node.ts';
import { post } from '../helpers/rpc.ts';

const Hostile = suite('hostile parameters');
const { url, call, fails, stop } = lazyNode();
Hostile.after(stop);

const DEV = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const hex = (n: bigint) => `0x${n.toString(16)}`;
const U64 = 2n ** 64n;

Hostile('eth_sendTransaction and personal_sendTransaction: nonce or gas beyond 64 bits, gas × price beyond 256 bits', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ nonce: hex(U64 - 1n) }, /argument 0 \(transaction\)\.nonce: expected a nonce below 2\^64 - 1/],
    [{ nonce: hex(2n ** 255n) }, /\.nonce/],
    [{ gas: hex(U64) }, /argument 0 \(transaction\)\.gas: expected a gas limit below 2\^64/],
    [{ gasLimit: hex(2n ** 200n) }, /\.gas: /],
    [{ gas: hex(U64 - 1n), gasPrice: hex(2n ** 200n) }, /gas × gasPrice .* must be below 2\^256/],
    [{ gasPrice: hex(2n ** 256n - 1n) }, /gas × gasPrice \(0x15f90 × /],
  ];
  for (const [fields, message] of cases) {
    for (const [method, extra] of [['eth_sendTransaction', []], ['personal_sendTransaction', ['']]] as const) {
      const err = await fails(method, [{ from: DEV, to: DEV, ...fields }, ...extra]);
      assert.is(err.code, -32602, `${method} ${JSON.stringify(fields)}: ${err.code} ${err.message}`);
      assert.match(err.message, message);
    }
  }
  assert.equal(await call('txpool_status'), { pending: 0, queued: 0 });
  assert.is(await call('eth_getTransactionCount', [DEV, 'pending']), '0x0');
});

Hostile('eth_call and eth_estimateGas with a value above the caller\'s balance fail as the call, not as the node', async () => {
  for (const method of ['eth_call', 'eth_estimateGas']) {
    for (const call of [{ to: DEV, value: hex(2n ** 256n - 1n) }, { from: DEV, to: DEV, value: hex(2n ** 200n) }]) {
      const err = await fails(method, [call]);
      assert.ok(err.code !== -32603, `${method} ${JSON.stringify(call)}: ${err.code} ${err.message}`);
      assert.is(err.code, -32015);
      assert.match(err.message, /(insufficient balance|value overflow)$/);
    }
  }
});

Hostile('a tracer whose toString is not a function is -32602 naming the tracer', async () => {
  const hash = await call<string>('eth_sendTransaction', [{ from: DEV, to: DEV, value: '0x1' }]);
  for (const tracer of [{ toString: 1 }, { toString: 'x', valueOf: null }, ['callTracer'], 7]) {
    for (const options of [{ tracer }, { tracerConfig: { tracer } }]) {
      const err = await fails('debug_traceTransaction', [hash, options]);
      assert.is(err.code, -32602, `${JSON.stringify(options)}: ${err.code} ${err.message}`);
      assert.match(err.message, /tracer/i);
    }
  }
});

Hostile('params nested 100,000 deep are -32602, alone and in a batch', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const one = (id: number, method: string) => `{"jsonrpc":"2.0","id":${id},"method":"${method}","params":[${deep}]}`;
  for (const method of ['eth_getBalance', 'eth_call', 'debug_traceTransaction', 'eth_subscribe', 'no_such']) {
    const res = await post(await url(), one(1, method));
    assert.is(res.status, 200, method);
    assert.ok(res.json.error && res.json.error.code !== -32603, `${method}: ${res.text.slice(0, 200)}`);
    if (method !== 'no_such') assert.is(res.json.error.code, -32602, method);
  }
  const batch = await post(await url(), `[${one(1, 'eth_getBalance')},{"jsonrpc":"2.0","id":2,"method":"eth_chainId"}]`);
  assert.is(batch.json[0].error.code, -32602);
  assert.is(batch.json[1].result, '0x21');
});

Hostile.run();

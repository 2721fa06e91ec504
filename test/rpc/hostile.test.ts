/**
 * Hostile parameters get -32602 naming the parameter, never -32603 (docs/hardening.md "Hostile input"):
 * transactions the node would sign with a nonce or gas beyond 64 bits or gas × gas price beyond 256 bits,
 * a call moving more than its caller holds, a tracer object whose toString is not a function. (Params
 * nested 100,000 deep: test/rpc/workers/pool.test.ts and the fuzz suite.) The node keeps serving.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../helpers/node.ts';

const Hostile = suite('hostile parameters');
const { call, fails, stop } = lazyNode();
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
      assert.is(err.code, -32016, 'a failure of the call that is not a revert');
      assert.match(err.message, /(insufficient balance|value overflow)$/);
    }
  }
});

Hostile('a tracer whose toString is not a function is -32602 naming the tracer', async () => {
  const hash = await call<string>('eth_sendTransaction', [{ from: DEV, to: DEV, value: '0x1' }]);
  for (const tracer of [{ toString: 1 }, { toString: 'x', valueOf: null }]) {
    for (const options of [{ tracer }, { tracerConfig: { tracer } }]) {
      const err = await fails('debug_traceTransaction', [hash, options]);
      assert.is(err.code, -32602, `${JSON.stringify(options)}: ${err.code} ${err.message}`);
      assert.match(err.message, /tracer/i);
    }
  }
});

Hostile.run();

/**
 * Which methods run on the RPC workers (docs/rpc-workers.md, "Workers"), through the method table on
 * a fake pool: every method that runs the EVM goes to the pool with its params as sent, and one that
 * names the `pending` block takes the pending block along; a tracer's `timeout` shortens the
 * request's deadline, within the node's. The pool and its workers for real: test/rpc/workers and
 * test/rpc/pending.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChainView } from '../../../src/chain/reader.ts';
import { JsonText } from '../../../src/rpc/json.ts';
import { WORKER_METHODS, workerMethods } from '../../../src/rpc/modules/workerMethods.ts';
import type { PendingBlockSource } from '../../../src/rpc/pending.ts';
import type { RpcWorkerPool, RunOptions } from '../../../src/rpc/workers/pool.ts';
import { fakeRpc } from '../../helpers/fakeRpc.ts';

const Routing = suite('methods on the RPC workers');
const HASH = `0x${'ab'.repeat(32)}`;
const CALL = { to: `0x${'44'.repeat(20)}`, data: '0x' };

function harness() {
  const runs: { method: string; params: unknown[]; timeoutMs?: number; streamable?: boolean; pendingKey?: number }[] = [];
  const workers = {
    options: { size: 1, timeoutMs: 5_000, maxQueued: 1 },
    run: async (method: string, params: unknown[], opts: RunOptions = {}) => {
      runs.push({ method, params, timeoutMs: opts.timeoutMs, streamable: opts.streamable, pendingKey: opts.pending?.key });
      return new JsonText('"from a worker"');
    },
  } as unknown as RpcWorkerPool;
  // The pending block the main thread holds: its snapshot is what a worker is sent.
  let snapshots = 0;
  const pending = {
    snapshot: async () => ({ key: ++snapshots + 6, payload: () => { throw new Error('the pool sends the payload, not the routing'); } }),
  } as unknown as PendingBlockSource;
  return { rpc: fakeRpc({ workers, pending }), runs };
}

Routing('every method that runs the EVM is served by the workers, and no other', () => {
  const served = Object.keys(workerMethods({ reader: {} as ChainView, calls: {} as never, replayer: {} as never, gasCap: 1n }));
  assert.equal(served.sort(), Object.keys(WORKER_METHODS).sort());
});

Routing('a call at a stored block goes to the pool with its params as sent; the answer is the worker\'s', async () => {
  const { rpc, runs } = harness();
  for (const [method, params] of [
    ['eth_call', [CALL, 'latest']], ['eth_estimateGas', [CALL]], ['eth_createAccessList', [CALL, '0x1']],
    ['debug_traceTransaction', [HASH]], ['debug_traceBlockByNumber', ['0x1', { tracer: 'callTracer' }]], ['trace_block', ['latest']], ['trace_filter', [{}]],
  ] as const) {
    const answer = await rpc.result(method, [...params]);
    assert.instance(answer, JsonText);
    assert.is((answer as JsonText).text, '"from a worker"');
    assert.equal(runs.pop(), { method, params, timeoutMs: undefined, streamable: undefined, pendingKey: undefined }, method);
  }
});

Routing('a request naming the pending block goes to the pool with the pending block of that moment', async () => {
  const { rpc, runs } = harness();
  await rpc.result('eth_call', [CALL, 'pending']);
  await rpc.result('debug_traceBlockByNumber', ['pending', { tracer: 'callTracer' }]);
  await rpc.result('trace_block', ['latest']);
  assert.equal(runs.map((r) => [r.method, r.pendingKey]), [['eth_call', 7], ['debug_traceBlockByNumber', 8], ['trace_block', undefined]]);
});

Routing('a tracer\'s timeout shortens the deadline; one past the node\'s, or malformed, is -32602 and runs nothing', async () => {
  const { rpc, runs } = harness();
  await rpc.result('debug_traceTransaction', [HASH, { timeout: '2s' }]);
  await rpc.result('debug_traceCall', [CALL, 'latest', { timeout: '250ms' }]);
  assert.equal(runs.map((r) => [r.method, r.timeoutMs]), [['debug_traceTransaction', 2_000], ['debug_traceCall', 250]]);
  const tooLong = await rpc.error('debug_traceBlockByHash', [HASH, { timeout: '10s' }]);
  assert.equal(tooLong, { code: -32602, message: 'invalid argument 1 (options).timeout: 10s is outside 1ms to 5000ms (this node\'s --rpc-evm-timeout)' });
  const malformed = await rpc.error('debug_traceTransaction', [HASH, { timeout: 'soon' }]);
  assert.is(malformed.code, -32602);
  assert.match(malformed.message, 'invalid argument 1 (options).timeout: expected a duration such as "500ms" or "2s"');
  assert.is(runs.length, 2);
});

Routing.run();

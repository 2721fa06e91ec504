/**
 * Which methods run on the RPC workers (docs/rpc-workers.md, "Workers"), through the method table on
 * a fake pool: every method that runs the EVM goes to the pool with its params as sent, unless it
 * names the `pending` block, which only the main thread has; a tracer's `timeout` shortens the
 * request's deadline, within the node's. The pool and its workers for real: test/rpc/workers.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChainView } from '../../../src/chain/reader.ts';
import { JsonText } from '../../../src/rpc/json.ts';
import { WORKER_METHODS, workerMethods } from '../../../src/rpc/modules/workerMethods.ts';
import type { PendingBlockSource } from '../../../src/rpc/pending.ts';
import type { RpcWorkerPool } from '../../../src/rpc/workers/pool.ts';
import { fakeRpc } from '../../helpers/fakeRpc.ts';

const Routing = suite('methods on the RPC workers');
const HASH = `0x${'ab'.repeat(32)}`;
const CALL = { to: `0x${'44'.repeat(20)}`, data: '0x' };

function harness() {
  const runs: { method: string; params: unknown[]; timeoutMs?: number; streamable?: boolean }[] = [];
  const workers = {
    options: { size: 1, timeoutMs: 5_000, maxQueued: 1 },
    run: async (method: string, params: unknown[], _signal?: AbortSignal, timeoutMs?: number, streamable?: boolean) => {
      runs.push({ method, params, timeoutMs, streamable });
      return new JsonText('"from a worker"');
    },
  } as unknown as RpcWorkerPool;
  // The pending block answers calls on the main thread with 0x2a.
  const pending = {
    get: async () => ({ block: { header: { gasLimit: 8_000_000n } }, calls: { call: async () => ({ returnValue: Uint8Array.of(0x2a), gasUsed: 21_000n, logs: [] }) } }),
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
    assert.equal(runs.pop(), { method, params, timeoutMs: undefined, streamable: undefined }, method);
  }
});

Routing('a request naming the pending block stays on the main thread', async () => {
  const { rpc, runs } = harness();
  assert.is(await rpc.result('eth_call', [CALL, 'pending']), '0x2a');
  assert.equal(runs, []);
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

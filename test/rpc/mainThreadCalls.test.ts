/**
 * Calls on the main thread (docs/rpc-workers.md, "Calls on the main thread") on real nodes: while the workers
 * are idle, eth_call and eth_estimateGas at the head run there and answer as a worker does, each block and each
 * revert seen at once; a call past its budget is stopped and answered by a worker; a call that comes while a
 * worker has a request, with other calls, or names another block, goes to the workers; --rpc-main-thread-calls.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseConfig } from '../../src/config/index.ts';
import { ECHO, initCodeFor, LOOP, STORE_OR_READ } from '../helpers/initCode.ts';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { post, rpc, waitUntil } from '../helpers/rpc.ts';
import { SENDER } from '../helpers/traceFixture.ts';

const MainThread = suite('calls on the main thread');
const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;


/** The whole JSON-RPC reply (result or error) to one request. */
const reply = async (url: string, method: string, params: unknown[]) => {
  const { json } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  return json;
};

async function started(overrides = {}): Promise<TestNode & { served: () => number; stopped: () => number }> {
  const node = await startTestNode({ rpcWorkers: 1, ...overrides });
  const calls = node.node.mainThreadCalls!;
  await calls.warmUp();
  return { ...node, served: () => calls.stats().served, stopped: () => calls.stats().stopped };
}

MainThread('at the head while the workers are idle: answered on the main thread as a worker answers, each block and each revert seen at once', async () => {
  const node = await started();
  try {
    let nonce = 0;
    const send = async (fields: { to?: string; data: string }) => {
      const raw = await SENDER.signTransaction({ type: 0, chainId: 33, gasPrice: 0, nonce: nonce++, gasLimit: 100_000, ...fields });
      const hash = await rpc(node.url, 'eth_sendRawTransaction', [raw]);
      return waitUntil(() => rpc(node.url, 'eth_getTransactionReceipt', [hash]), { what: `transaction ${nonce - 1} mined` });
    };
    const { contractAddress: to } = await send({ data: initCodeFor(STORE_OR_READ) });
    const before = node.served();
    for (let i = 1; i <= 10; i++) {
      await send({ to, data: word(i) });
      assert.is(await rpc(node.url, 'eth_call', [{ to }, 'latest']), word(i), `the call after store ${i}`);
      // Storing over a non-zero slot: 21,000, the calldata (one non-zero byte, 31 zero), seven cheap opcodes, SSTORE's reset (2,900 + the cold 2,100).
      assert.is(await rpc(node.url, 'eth_estimateGas', [{ from: SENDER.address, to, data: word(i + 1) }]), `0x${(21_000 + 16 + 31 * 4 + 23 + 5_000).toString(16)}`);
    }
    const snapshot = await rpc(node.url, 'evm_snapshot', []);
    await send({ to, data: word(99) });
    assert.is(await rpc(node.url, 'eth_call', [{ to }]), word(99));
    assert.ok(await rpc(node.url, 'evm_revert', [snapshot]));
    assert.is(await rpc(node.url, 'eth_call', [{ to }, 'latest']), word(10), 'the state before the reverted block');
    assert.is(node.served() - before, 22, 'every one of those calls ran on the main thread');

    // A revert and a failure are answered as a worker answers them (a block number sends the call to the workers).
    // The main thread's first: eight calls within 5 ms would make a load, which goes to the workers.
    const head = await rpc(node.url, 'eth_blockNumber', []);
    const calls = [{ data: '0x60006000fd' }, { data: '0xfe' }, ECHO];
    const here = [];
    for (const call of calls) here.push(await reply(node.url, 'eth_call', [call, 'latest']));
    const onWorker = [];
    for (const call of calls) onWorker.push(await reply(node.url, 'eth_call', [call, head]));
    assert.equal(here, onWorker);
    assert.is(here[0].error.code, -32015, 'a revert');
    assert.is(node.served() - before, 25);
    // `pending` goes to the workers.
    assert.is(await rpc(node.url, 'eth_call', [ECHO, 'pending']), '0x1234');
    assert.is(node.served() - before, 25);
  } finally {
    await node.stop();
  }
});

MainThread('a call still running past its budget is stopped and answered by a worker; the next call runs on the main thread again', async () => {
  const node = await started();
  try {
    // 50 million gas of a four-byte loop: about four million jumps, far more than 5 ms of work.
    const looping = await reply(node.url, 'eth_call', [{ data: LOOP, gas: '0x2faf080' }, 'latest']);
    assert.is(looping.error?.message, 'VM execution failed: out of gas');
    assert.is(node.stopped(), 1);
    assert.is(node.served(), 0);
    assert.is(await rpc(node.url, 'eth_call', [ECHO, 'latest']), '0x1234');
    assert.is(node.served(), 1);
    assert.is(await rpc(node.url, 'eth_blockNumber', []), '0x0', 'the node serves on');
  } finally {
    await node.stop();
  }
});

MainThread('while a worker has a request, calls go to the workers', async () => {
  const node = await started({ rpcGasCap: 10n ** 12n, rpcEvmTimeoutMs: 60_000 });
  try {
    const trace = reply(node.url, 'debug_traceCall', [{ data: LOOP }, 'latest', { tracer: 'callTracer', timeout: '2s' }]);
    await waitUntil(() => node.node.workers.stats().running > 0, { what: 'the trace running on the worker' });
    assert.is(await rpc(node.url, 'eth_call', [ECHO, 'latest']), '0x1234');
    assert.is(node.served(), 0);
    assert.is((await trace).error?.code, -32005, 'the trace ends at its own timeout');
  } finally {
    await node.stop();
  }
});

MainThread('calls that come together (a batch, a load) go to the workers', async () => {
  const node = await started();
  try {
    const inputs = Array.from({ length: 10 }, (_, i) => `0x${i.toString(16).padStart(2, '0')}`);
    const batch = inputs.map((data, id) => ({ jsonrpc: '2.0', id, method: 'eth_call', params: [{ ...ECHO, data }, 'latest'] }));
    const { json } = await post(node.url, JSON.stringify(batch));
    assert.equal(json.map((r: { result: string }) => r.result), inputs);
    assert.is(node.served(), 0);
    // Alone again, and past the window in which eight calls make a load (5 ms), a call runs on the main thread.
    await new Promise((r) => setTimeout(r, 20));
    assert.is(await rpc(node.url, 'eth_call', [ECHO, 'latest']), '0x1234');
    assert.is(node.served(), 1);
  } finally {
    await node.stop();
  }
});

MainThread('--rpc-main-thread-calls: on unless set false, and off under --hosted unless set', async () => {
  assert.is(parseConfig([]).rpcMainThreadCalls, undefined);
  assert.is(parseConfig(['--rpc-main-thread-calls', 'false']).rpcMainThreadCalls, false);
  const off = await startTestNode({ rpcMainThreadCalls: false });
  const hosted = { apiKeys: new Set(['k'.repeat(16)]), requestsPerMinute: 600 };
  const [hostedNode, hostedOn] = await Promise.all([startTestNode({ hosted }), startTestNode({ hosted, rpcMainThreadCalls: true })]);
  try {
    assert.is(off.node.mainThreadCalls, undefined);
    assert.is(await rpc(off.url, 'eth_call', [ECHO, 'latest']), '0x1234', 'answered by a worker');
    assert.is(hostedNode.node.mainThreadCalls, undefined);
    assert.ok(hostedOn.node.mainThreadCalls);
  } finally {
    await Promise.all([off.stop(), hostedNode.stop(), hostedOn.stop()]);
  }
});

MainThread.run();

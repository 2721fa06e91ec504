/**
 * The RPC workers (docs/rpc-workers.md) on real nodes: a call that loops until its deadline is
 * answered -32005 while other requests are answered meanwhile, and its worker is replaced; a full
 * queue is refused at once; a client that goes away cancels its work; the gas cap; debug_traceCall;
 * a large trace streamed, or collected within a bound in a batch; a head told with its header and trie nodes
 * is followed without the database; an idle worker retires; requests of one
 * turn go together, within the queue's bound; bad input is -32602 naming the parameter; and the built node
 * (dist/main.mjs) runs its workers too.
 */
import { Account, Address, hexToBytes, MapDB } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import WebSocket from 'ws';
import * as assert from 'uvu/assert';
import { headerHash } from '../../../src/chain/codec/header.ts';
import { stateManagerAt } from '../../../src/chain/execution/blockRunner.ts';
import type { HeadInfo } from '../../../src/chain/reader.ts';
import { OverlayTrieDb } from '../../../src/chain/storage/trieDb.ts';
import { ConfigError, parseConfig } from '../../../src/config/index.ts';
import type { JsonText } from '../../../src/rpc/json.ts';
import { QUEUED_PER_WORKER } from '../../../src/rpc/workers/options.ts';
import { IN_FLIGHT_PER_WORKER, RpcWorkerPool } from '../../../src/rpc/workers/pool.ts';
import { ECHO, initCodeFor, LOOP, STORE_OR_READ } from '../../helpers/initCode.ts';
import { startChildNode, startTestNode, tempDir } from '../../helpers/node.ts';
import { post, rpc, rpcError, waitUntil } from '../../helpers/rpc.ts';
import { SENDER } from '../../helpers/traceFixture.ts';

const Workers = suite('RPC workers');

/** Deploys a contract that loops while more than 10,000 gas is left (bench/heavy.ts has its code). */
const BURNER_INIT = '0x600f600c600039600f6000f35b5a6127101015600d576000565b00';

/** Deploys LOOP as a contract's code (eth_call needs a `to`): PUSH4 LOOP, PUSH1 0, MSTORE, RETURN its 4 bytes. */
async function deployLoop(url: string): Promise<{ to: string }> {
  const raw = await SENDER.signTransaction({ type: 0, chainId: 33, gasPrice: 0, nonce: 0, gasLimit: 100_000, data: `0x63${LOOP.slice(2)}6000526004601cf3` });
  const hash = await rpc(url, 'eth_sendRawTransaction', [raw]);
  return { to: (await waitUntil(() => rpc(url, 'eth_getTransactionReceipt', [hash]), { what: 'the loop deployed' })).contractAddress };
}

/** Sends a request and notes the order in which answers arrive. */
function ordered(url: string) {
  const order: string[] = [];
  return {
    order,
    send: async (label: string, method: string, params: unknown[]) => {
      const { json } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
      order.push(label);
      return json;
    },
  };
}

Workers('flags: --rpc-workers, --rpc-evm-timeout and --rpc-gas-cap, positive whole numbers', () => {
  const c = parseConfig(['--rpc-workers', '3', '--rpc-evm-timeout', '2500', '--rpc-gas-cap', '1000000']);
  assert.equal([c.rpcWorkers, c.rpcEvmTimeoutMs, c.rpcGasCap], [3, 2500, 1_000_000n]);
  const defaults = parseConfig([]);
  assert.equal([defaults.rpcWorkers, defaults.rpcEvmTimeoutMs, defaults.rpcGasCap], [undefined, undefined, undefined]);
  for (const [flag, value] of [['--rpc-workers', '0'], ['--rpc-evm-timeout', '1.5'], ['--rpc-gas-cap', '0'], ['--rpc-gas-cap', '5e7']]) {
    assert.throws(() => parseConfig([flag!, value!]), (e: Error) => e instanceof ConfigError && e.message.startsWith(flag!));
  }
});

Workers('a call looping past its deadline: -32005 naming the timeout, other requests answered first, the worker replaced', async () => {
  // The node's deadline is long (a replacement worker takes seconds to start under tsx); the loop asks for 3 s (room for the other answers on a loaded machine).
  const node = await startTestNode({ rpcWorkers: 1, rpcEvmTimeoutMs: 60_000, rpcGasCap: 10n ** 12n });
  try {
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234', 'the worker answers');
    const { order, send } = ordered(node.url);
    const loop = send('loop', 'debug_traceCall', [{ data: LOOP }, 'latest', { tracer: 'callTracer', timeout: '3s' }]);
    // The loop holds the only worker; the main thread still answers.
    while (node.node.workers.stats().running === 0) await new Promise((r) => setTimeout(r, 5));
    const head = await send('blockNumber', 'eth_blockNumber', []);
    assert.is(head.result, '0x0');
    // A call handed to the same worker behind the loop is run again by the next worker, not failed with it.
    // (On a loaded machine the worker may still be reading the loop's head when the call arrives, and run it first.)
    const behind = send('behind', 'eth_call', [ECHO]);
    const looped = await loop;
    assert.is((await behind).result, '0x1234');
    assert.is(order[0], 'blockNumber');
    assert.is(looped.error.code, -32005);
    assert.match(looped.error.message, /debug_traceCall did not finish within 3000 ms \(this node's --rpc-evm-timeout is 60000 ms\)/);
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234', 'a new worker serves the next call');
    assert.is(node.node.workers.stats().workers, 1);
  } finally {
    await node.stop();
  }
});

Workers('a full queue is refused at once with -32005; clients that go away cancel their work, running or waiting', async () => {
  // No deadline to speak of and no gas cap to end the loops: only cancellation stops them.
  const node = await startTestNode({ rpcWorkers: 1, rpcEvmTimeoutMs: 3_600_000, rpcGasCap: 10n ** 15n });
  try {
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234');
    const loop = await deployLoop(node.url);
    const gone = new AbortController();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [loop] });
    const loops = Array.from({ length: IN_FLIGHT_PER_WORKER + QUEUED_PER_WORKER }, () =>
      fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body, signal: gone.signal }).catch(() => undefined));
    await waitUntil(() => node.node.workers.stats().queued === QUEUED_PER_WORKER, { what: 'a worker full of loops and a full queue' });
    const refused = await rpcError(node.url, 'eth_call', [ECHO]);
    assert.is(refused.code, -32005);
    assert.match(refused.message, /node busy: 1 workers busy and 32 requests waiting/);
    gone.abort();
    await Promise.all(loops);
    await waitUntil(() => node.node.workers.stats().running === 0 && node.node.workers.stats().queued === 0, { what: 'the cancelled work gone' });
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234', 'the node serves again');
  } finally {
    await node.stop();
  }
});

Workers('the gas cap bounds eth_call, eth_estimateGas and debug_traceCall; gas beyond uint64 is -32602', async () => {
  const node = await startTestNode({ rpcWorkers: 1, rpcGasCap: 100_000n });
  try {
    const loop = await rpcError(node.url, 'eth_call', [{ ...await deployLoop(node.url), gas: '0x989680' }]);
    assert.equal([loop.code, loop.message], [-32016, 'VM execution failed: out of gas']);
    const top = await rpc(node.url, 'debug_traceCall', [{ ...ECHO, gas: '0x989680' }, 'latest', { tracer: 'callTracer' }]);
    assert.is(top.gas, '0x186a0', 'the capped gas');
    assert.is(top.output, '0x1234');
    const estimate = await rpcError(node.url, 'eth_estimateGas', [{ data: LOOP }]);
    assert.match(estimate.message, /gas required exceeds allowance \(100000\)/);
    const huge = await rpcError(node.url, 'eth_call', [{ ...ECHO, gas: `0x1${'0'.repeat(16)}` }]);
    assert.is(huge.code, -32602);
    assert.match(huge.message, /0 \(call\)\.gas/);
  } finally {
    await node.stop();
  }
});

Workers('debug_traceCall: struct logs of the call on the state after a block, as debug_traceTransaction writes them; eth_call over WebSocket', async () => {
  const node = await startTestNode({ rpcWorkers: 1 });
  try {
    // PUSH1 2, PUSH1 3, ADD, then the end of the code.
    const t = await rpc(node.url, 'debug_traceCall', [{ data: '0x6002600301' }, '0x0']);
    assert.equal(t.structLogs.map((s: any) => s.op), ['PUSH1', 'PUSH1', 'ADD']);
    assert.equal(t.structLogs[2].stack, ['0x2', '0x3']);
    assert.is(t.failed, false);
    assert.is(t.gas, 21_000 + 32_000 + 2 * 16 + 3 * 16 + 3 * 3 + 2, 'intrinsic (creation, data, init code word) and execution gas');
    // Over WebSocket the worker's answer is copied into the reply the same way.
    const ws = new WebSocket(node.url.replace(/^http/, 'ws'));
    await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
    const reply = new Promise<any>((resolve) => ws.once('message', (data) => resolve(JSON.parse(data.toString()))));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'eth_call', params: [ECHO] }));
    assert.equal(await reply, { jsonrpc: '2.0', id: 5, result: '0x1234' });
    ws.close();
  } finally {
    await node.stop();
  }
});

/** Reads a response body as it comes: its size, its first and last bytes; throws if the connection is cut. */
async function readStream(res: Response): Promise<{ bytes: number; head: string; tail: string }> {
  let bytes = 0;
  let head = '';
  let tail = '';
  for await (const chunk of res.body!) {
    const text = Buffer.from(chunk).toString();
    bytes += chunk.length;
    if (head.length < 200) head += text.slice(0, 200);
    tail = (tail + text).slice(-400);
  }
  return { bytes, head, tail };
}

Workers('a default trace of a 9.2M-gas transaction streams to the client; in a batch it fails with advice that works; a stream past its deadline is cut', async () => {
  // A deadline that a busy machine cannot reach: this is about the stream and the advice, not the time.
  const node = await startTestNode({ rpcWorkers: 1, rpcEvmTimeoutMs: 120_000, rpcGasCap: 10n ** 12n });
  try {
    const send = async (nonce: number, fields: object) => {
      const raw = await SENDER.signTransaction({ type: 0, chainId: 33, gasPrice: 0, nonce, ...fields });
      const hash = await rpc(node.url, 'eth_sendRawTransaction', [raw]);
      return waitUntil(() => rpc(node.url, 'eth_getTransactionReceipt', [hash]), { what: 'the receipt' });
    };
    const burner = (await send(0, { data: BURNER_INIT, gasLimit: 100_000 })).contractAddress;
    const burn = await send(1, { to: burner, gasLimit: 9_200_000 });
    assert.ok(BigInt(burn.gasUsed) > 9_000_000n);
    const request = (id: number, params: unknown[], method = 'debug_traceTransaction') => ({ jsonrpc: '2.0', id, method, params });

    // Alone in its request: streamed (chunked), far past the 64 MiB a collected trace may take.
    const res = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request(7, [burn.transactionHash])) });
    assert.is(res.headers.get('transfer-encoding'), 'chunked');
    const streamed = await readStream(res);
    assert.ok(streamed.bytes > 128 * 1024 * 1024, `${streamed.bytes} bytes`);
    assert.ok(streamed.head.startsWith('{"jsonrpc":"2.0","id":7,"result":{"structLogs":[{"pc":0,"op":"JUMPDEST","gas":9179000,"gasCost":1,"depth":1,"stack":[],"memory":[]},'));
    assert.ok(streamed.tail.endsWith(`"op":"STOP","gas":9954,"gasCost":0,"depth":1,"stack":[],"memory":[]}],"gas":${BigInt(burn.gasUsed)},"failed":false,`
      + `"returnValue":"","contractAddress":"${burner.slice(2)}","result":"","error":"","reverted":false}}`), streamed.tail);

    // In a batch the answer is collected, within 64 MiB: past it, advice that works.
    const { json: batch } = await post(node.url, JSON.stringify([
      request(1, [burn.transactionHash]),
      request(2, [burn.transactionHash, { disableMemory: true, disableStack: true, disableStorage: true }]),
      request(3, [burn.transactionHash, { tracer: 'callTracer' }]),
    ]));
    assert.is(batch[0].error.code, -32005);
    assert.match(batch[0].error.message, /passed 64 MiB after \d+ steps; disableMemory, disableStack and disableStorage make each step smaller/);
    assert.match(batch[1].error.message, /even without memory, stack and storage those steps would not fit: use the callTracer/);
    assert.is(batch[2].result.gasUsed, burn.gasUsed, 'the callTracer traces it');

    // A stream cannot take back what it sent: past its deadline it is cut, never ended as if complete.
    const endless = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request(8, [{ data: LOOP }, 'latest', { timeout: '1s' }], 'debug_traceCall')) });
    assert.is(endless.status, 200);
    const cut = await readStream(endless).then(() => undefined, (err: Error) => err);
    assert.ok(cut, 'the body ends early, with an error');
    assert.is(await rpc(node.url, 'eth_blockNumber'), '0x2', 'the node keeps serving');
  } finally {
    await node.stop();
  }
});

/** Runtime: with calldata, stores its first word in slot 0; without, returns slot 0. */

Workers('calls right after each block see that block, while the worker is told each new head and prepares for it', async () => {
  // Every call on the worker: with the main thread's calls on, a call that finds the worker idle runs there.
  const node = await startTestNode({ rpcWorkers: 1, rpcMainThreadCalls: false });
  try {
    const word = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
    const send = async (nonce: number, fields: { to?: string; data: string }) => {
      const raw = await SENDER.signTransaction({ type: 0, chainId: 33, gasPrice: 0, nonce, gasLimit: 100_000, ...fields });
      const hash = await rpc(node.url, 'eth_sendRawTransaction', [raw]);
      return waitUntil(() => rpc(node.url, 'eth_getTransactionReceipt', [hash]), { what: `transaction ${nonce} mined` });
    };
    const { contractAddress: to } = await send(0, { data: initCodeFor(STORE_OR_READ) });
    for (let i = 1; i <= 20; i++) {
      await send(i, { to, data: word(i) });
      assert.is(await rpc(node.url, 'eth_call', [{ to }, 'latest']), word(i), `the call after block ${i + 1}`);
      // Storing over a non-zero slot: 21,000, the calldata (one non-zero byte, 31 zero), seven cheap opcodes, SSTORE's reset (2,900 + the cold 2,100).
      assert.is(await rpc(node.url, 'eth_estimateGas', [{ from: SENDER.address, to, data: word(i + 1) }]), `0x${(21_000 + 16 + 31 * 4 + 23 + 5_000).toString(16)}`);
    }
    assert.is(node.node.workers.stats().workers, 1);
  } finally {
    await node.stop();
  }
});

Workers('a worker told a new head with its header and trie nodes follows it without reading them from the database', async () => {
  const node = await startTestNode({ rpcWorkers: 1 });
  // A state only the message holds: an account with 0x2a wei, and code that returns that account's balance.
  const holder = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
  const reader = new Address(hexToBytes('0x00000000000000000000000000000000000000bb'));
  const nodes = new OverlayTrieDb(new MapDB());
  const state = stateManagerAt(nodes, undefined, node.node.reader.common, { caches: true });
  await state.putAccount(holder, new Account(0n, 42n));
  await state.putAccount(reader, new Account());
  await state.putCode(reader, hexToBytes('0x7300000000000000000000000000000000000000aa315f5260205ff3')); // PUSH20 holder, BALANCE, return it
  await state.checkpoint();
  await state.commit();
  const genesis = node.node.reader.head();
  const header = { ...genesis.header, parentHash: genesis.hash, number: 1n, stateRoot: await state.getStateRoot() };
  const head: HeadInfo = { hash: headerHash(header), number: 1n, header, totalDifficulty: genesis.totalDifficulty + 1n };
  let answerAt = genesis.hash;
  const pool = new RpcWorkerPool({ size: 1, timeoutMs: 60_000, maxQueued: 4 },
    { dataDir: node.config.dataDir, network: 'regtest', gasCap: 1_000_000n }, () => answerAt);
  try {
    const call = async (params: unknown[]) => JSON.parse(((await pool.run('eth_call', params)) as JsonText).text);
    assert.is(await call([ECHO]), '0x1234', 'the worker is busy, so it is told heads');
    pool.headRef.tell({ type: 'head', head, nodes: nodes.writes });
    answerAt = head.hash;
    assert.is(await call([{ to: reader.toString() }, 'latest']), `0x${'2a'.padStart(64, '0')}`, 'the call ran on the told state');
  } finally {
    await pool.close();
    await node.stop();
  }
});

Workers('an idle worker retires, closing its database; the next request starts another', async () => {
  const node = await startTestNode({ rpcWorkers: 1 });
  const pool = new RpcWorkerPool({ size: 1, timeoutMs: 60_000, maxQueued: 4, idleMs: 200 },
    { dataDir: node.config.dataDir, network: 'regtest', gasCap: 1_000_000n }, () => node.node.reader.head().hash);
  try {
    const call = async () => JSON.parse(((await pool.run('eth_call', [ECHO])) as JsonText).text);
    assert.is(await call(), '0x1234');
    assert.is(pool.stats().workers, 1);
    await waitUntil(() => pool.stats().workers === 0, { what: 'the idle worker retired' });
    assert.is(await call(), '0x1234', 'a new worker answers');
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234', 'the node\'s own workers read the same database meanwhile');
  } finally {
    await pool.close();
    await node.stop();
  }
});

Workers('--rpc-warm-workers: 1 by default when mining on each transaction, else 0; at most --rpc-workers', () => {
  assert.is(parseConfig([]).rpcWarmWorkers, 1);
  assert.is(parseConfig(['--block-time', '1000']).rpcWarmWorkers, 0);
  assert.is(parseConfig(['--no-mining']).rpcWarmWorkers, 0);
  assert.is(parseConfig(['--rpc-warm-workers', '0']).rpcWarmWorkers, 0);
  assert.is(parseConfig(['--block-time', '1000', '--rpc-workers', '2', '--rpc-warm-workers', '2']).rpcWarmWorkers, 2);
  assert.throws(() => parseConfig(['--rpc-workers', '1', '--rpc-warm-workers', '2']),
    (e: Error) => e instanceof ConfigError && e.message === '--rpc-warm-workers must be at most --rpc-workers (1), not 2');
});

Workers('a worker kept warm starts with the node, outlives the idle time, and is replaced when it is terminated; no more than the pool\'s size are kept', async () => {
  const node = await startTestNode({ rpcWorkers: 1, rpcWarmWorkers: 1 });
  // Asked to keep three, a pool of one keeps one.
  const pool = new RpcWorkerPool({ size: 1, timeoutMs: 60_000, maxQueued: 4, idleMs: 100, warm: 3 },
    { dataDir: node.config.dataDir, network: 'regtest', gasCap: 10n ** 12n }, () => node.node.reader.head().hash);
  try {
    await waitUntil(() => node.node.workers.stats().ready === 1, { what: 'the node\'s worker ready before any request' });
    pool.warmUp();
    await waitUntil(() => pool.stats().ready === 1, { what: 'the warm worker ready' });
    const call = async () => JSON.parse(((await pool.run('eth_call', [ECHO])) as JsonText).text);
    assert.is(await call(), '0x1234');
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(pool.stats(), { workers: 1, ready: 1, running: 0, queued: 0 }, 'still running five idle times later');
    // A loop past its deadline: its worker is terminated, and a replacement starts with no request asking.
    const looped = await pool.run('eth_call', [{ data: LOOP }], { timeoutMs: 300 }).then(() => undefined, (err: Error) => err.message);
    assert.match(looped ?? '', /did not finish within 300 ms/);
    assert.is(pool.stats().ready, 0);
    await waitUntil(() => pool.stats().ready === 1, { what: 'the replacement ready' });
    assert.is(await call(), '0x1234');
  } finally {
    await pool.close();
    await node.stop();
  }
});

Workers('requests of one turn go to the worker together: those a worker has room for do not count against the queue', async () => {
  const node = await startTestNode({ rpcWorkers: 1 });
  const pool = new RpcWorkerPool({ size: 1, timeoutMs: 60_000, maxQueued: 4 },
    { dataDir: node.config.dataDir, network: 'regtest', gasCap: 1_000_000n }, () => node.node.reader.head().hash);
  try {
    const call = async () => JSON.parse(((await pool.run('eth_call', [ECHO])) as JsonText).text);
    assert.is(await call(), '0x1234', 'the worker is up');
    // All in one turn: a worker's worth of room, then the queue's 4, then one too many.
    const accepted = Array.from({ length: IN_FLIGHT_PER_WORKER + 4 }, call);
    const refused = await pool.run('eth_call', [ECHO]).then(() => undefined, (err: Error) => err.message);
    assert.match(refused ?? '', /node busy: 1 workers busy and 4 requests waiting/);
    assert.equal(await Promise.all(accepted), Array(IN_FLIGHT_PER_WORKER + 4).fill('0x1234'));
  } finally {
    await pool.close();
    await node.stop();
  }
});

Workers('bad input is -32602 naming the parameter, never -32603, and the node keeps serving', async () => {
  const node = await startTestNode({ rpcWorkers: 1, rpcEvmTimeoutMs: 2000 });
  try {
    let deep = '[]';
    for (let i = 0; i < 100_000; i++) deep = `[${deep}]`;
    const nested = await post(node.url, `{"jsonrpc":"2.0","id":1,"method":"debug_traceCall","params":${deep}}`);
    assert.is(nested.json.error.code, -32602);
    assert.match(nested.json.error.message, /params are nested deeper than 32/);
    const cases: [unknown[], RegExp][] = [
      [[ECHO, 'latest', 7], /2 \(options\): expected a tracer options object.*got the number 7/],
      [[ECHO, 'latest', { tracer: ['callTracer'] }], /Invalid tracer type: an array in 2 \(options\)\.tracer/],
      [[ECHO, 'latest', { tracer: true }], /Invalid tracer type: the boolean true in 2 \(options\)\.tracer/],
      [[ECHO, 'latest', { timeout: '1h' }], /2 \(options\)\.timeout: expected a duration/],
      [[ECHO, 'latest', { timeout: '10s' }], /2 \(options\)\.timeout: 10s is outside 1ms to 2000ms/],
      [[ECHO, 'latest', { timeout: '0ms' }], /2 \(options\)\.timeout: 0ms is outside/],
    ];
    for (const [params, message] of cases) {
      const err = await rpcError(node.url, 'debug_traceCall', params);
      assert.is(err.code, -32602, JSON.stringify(params));
      assert.match(err.message, message);
    }
    assert.is(await rpc(node.url, 'eth_blockNumber'), '0x0');
  } finally {
    await node.stop();
  }
});

Workers('the built node (dist/main.mjs) runs its calls on worker threads', async () => {
  const dir = tempDir();
  const node = await startChildNode(dir, ['--rpc-workers', '1', '--rpc-evm-timeout', '1000', '--rpc-gas-cap', '1000000000000']);
  try {
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234');
    const { order, send } = ordered(node.url);
    const loop = send('loop', 'eth_call', [await deployLoop(node.url)]);
    // The child's pool cannot be watched from here: a pause lets the loop reach the worker first. On
    // the main thread it would hold the event loop for good (it has gas for hours).
    await new Promise((r) => setTimeout(r, 200));
    await send('blockNumber', 'eth_blockNumber', []);
    assert.is((await loop).error.code, -32005);
    assert.equal(order, ['blockNumber', 'loop']);
    assert.is(await rpc(node.url, 'eth_call', [ECHO]), '0x1234', 'a new worker serves the next call');
    node.child.kill('SIGTERM');
    assert.is(await node.exited, 0, 'the node and its workers stop cleanly');
  } finally {
    node.child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

Workers.run();

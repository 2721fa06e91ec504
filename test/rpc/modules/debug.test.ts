/**
 * debug_* against a real node: struct-log and call traces of transactions whose calls, reverts,
 * creations and self-destructs are known (test/fixtures/Tracing.sol), block traces, the tracer options,
 * malformed options, unknown hashes, and tracing leaving the chain as it was; then
 * debug_wireProtocolQueueSize through the module with a fake peer manager, which reports what the p2p host has queued.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../../helpers/node.ts';
import { compileFixture } from '../../helpers/solc.ts';
import { callerAbi, deployTraceFixture, GAS, KILL_VALUE, SENDER, type TraceFixture } from '../../helpers/traceFixture.ts';
import type { ActorRef } from '../../../src/actors/kernel/actor.ts';
import type { PeerManagerProtocol } from '../../../src/actors/peerManager/protocol.ts';
import { debugModule } from '../../../src/rpc/modules/debug.ts';

const Debug = suite('debug_*');
const { url, call, fails, stop } = lazyNode();
let fixture: Promise<TraceFixture> | undefined;
const chain = async () => (fixture ??= deployTraceFixture(await url()));
Debug.after(stop);

const UNKNOWN = `0x${'ab'.repeat(32)}`;
const WORD = /^[0-9a-f]{64}$/;
const word = (n: bigint) => n.toString(16).padStart(64, '0');
const hexQ = (n: bigint | number) => `0x${n.toString(16)}`;
const plain = (address: string) => address.slice(2).toLowerCase();
const sender = SENDER.address.toLowerCase();

Debug('callTracer: nested calls with their types, addresses, outputs, the caught revert and its reason', async () => {
  const f = await chain();
  const t = await call('debug_traceTransaction', [f.nested.transactionHash, { tracer: 'callTracer' }]);
  assert.is(t.type, 'CALL');
  assert.is(t.from, sender);
  assert.is(t.to, f.caller);
  assert.is(t.gas, hexQ(GAS));
  assert.is(t.gasUsed, f.nested.gasUsed);
  assert.is(t.output, `0x${word(10n)}`);
  assert.not.ok('error' in t);
  // touch is a CALL; boom and stored() are view/pure, so Solidity uses STATICCALL; then the DELEGATECALL.
  assert.equal(t.calls.map((c: any) => c.type), ['CALL', 'STATICCALL', 'STATICCALL', 'DELEGATECALL']);
  for (const c of t.calls) {
    assert.is(c.from, f.caller);
    assert.is(c.to, f.callee);
  }
  const [touch, boom, staticStored, delegateStored] = t.calls;
  assert.is(touch.input.slice(0, 10), '0xedaa0c1d'); // touch(uint256)
  assert.is(touch.output, `0x${word(10n)}`);
  assert.not.ok('logs' in touch, 'logs only with withLog');
  assert.is(boom.error, 'execution reverted');
  assert.is(boom.revertReason, 'callee says no');
  assert.not.ok('value' in boom, 'STATICCALL has no value');
  assert.is(staticStored.output, `0x${word(5n)}`, 'the static call sees the stored 5');
  assert.is(delegateStored.output, `0x${plain(f.callee).padStart(64, '0')}`, "the delegate call reads the caller's own slot 0");
  for (const c of t.calls) assert.ok(BigInt(c.gasUsed) > 0n && BigInt(c.gasUsed) < BigInt(c.gas));
});

Debug('callTracer withLog keeps each frame\'s logs; onlyTopCall drops the children', async () => {
  const f = await chain();
  const withLog = await call('debug_traceTransaction', [f.nested.transactionHash, { tracer: 'callTracer', tracerConfig: { withLog: true } }]);
  const touched = (await call('eth_getTransactionReceipt', [f.nested.transactionHash])).logs[0];
  assert.equal(withLog.calls[0].logs, [{ address: f.callee, topics: touched.topics, data: `0x${word(5n)}`, position: '0x0' }]);
  assert.not.ok('logs' in withLog, 'the caller itself logs nothing');
  const top = await call('debug_traceTransaction', [f.nested.transactionHash, { tracer: 'CALLTRACER', onlyTopCall: 'true' }]);
  assert.not.ok('calls' in top);
  assert.is(top.gasUsed, f.nested.gasUsed);
});

Debug('callTracer: a reverted transaction, and the logs of its successful child rolled back with it', async () => {
  const f = await chain();
  const t = await call('debug_traceTransaction', [f.failing.transactionHash, { tracer: 'callTracer', withLog: true }]);
  assert.is(t.error, 'execution reverted');
  assert.is(t.revertReason, 'caller gives up');
  assert.is(t.gasUsed, f.failing.gasUsed);
  assert.is(t.calls.length, 1);
  assert.is(t.calls[0].type, 'CALL');
  assert.not.ok('error' in t.calls[0]);
  assert.not.ok('logs' in t.calls[0]);
});

Debug('callTracer: CREATE with its address and code, then SELFDESTRUCT sending the balance back', async () => {
  const f = await chain();
  const t = await call('debug_traceTransaction', [f.kill.transactionHash, { tracer: 'callTracer' }]);
  assert.is(t.value, hexQ(KILL_VALUE));
  const [create, die] = t.calls;
  assert.is(create.type, 'CREATE');
  assert.is(create.to, f.doomed);
  assert.is(create.value, hexQ(KILL_VALUE));
  assert.is(create.input, compileFixture('Tracing.sol', 'Doomed').bytecode);
  assert.ok(create.output.length > 2 && create.input.endsWith(create.output.slice(2)), 'the runtime code the creation code returns');
  assert.is(await call('eth_getCode', [f.doomed, 'latest']), '0x', 'created and destroyed in one transaction (EIP-6780)');
  assert.is(die.type, 'CALL');
  assert.is(die.to, f.doomed);
  assert.equal(die.calls.map((c: any) => [c.type, c.from, c.to, c.value]), [['SELFDESTRUCT', f.doomed, sender, hexQ(KILL_VALUE)]]);
});

Debug('struct logs: gas, result and one entry per opcode with stack, memory and touched storage', async () => {
  const f = await chain();
  const t = await call('debug_traceTransaction', [f.nested.transactionHash]);
  assert.is(t.gas, Number(f.nested.gasUsed));
  assert.is(t.failed, false);
  assert.is(t.reverted, false);
  assert.is(t.error, '');
  assert.is(t.returnValue, word(10n));
  assert.is(t.result, t.returnValue);
  assert.is(t.contractAddress, plain(f.caller));
  const logs: any[] = t.structLogs;
  assert.equal(logs[0], { pc: 0, op: 'PUSH1', gas: GAS - intrinsicGas(callerAbi.encodeFunctionData('nested', [5n])), gasCost: 3, depth: 1, stack: [], memory: [] });
  assert.equal([...new Set(logs.map((l) => l.depth))].sort(), [1, 2]);
  for (const l of logs) {
    assert.type(l.pc, 'number');
    assert.type(l.gas, 'number');
    for (const s of l.stack) assert.match(s, /^0x(0|[1-9a-f][0-9a-f]*)$/);
    for (const m of l.memory) assert.match(m, WORD);
  }
  // Callee's SSTORE of 5 into slot 0, at depth 2.
  const store = logs.find((l) => l.op === 'SSTORE');
  assert.is(store.depth, 2);
  assert.equal(store.storage, { [word(0n)]: word(5n) });
  // Caller's first SLOAD reads slot 0: the callee's address.
  const load = logs.find((l) => l.op === 'SLOAD' && l.depth === 1);
  assert.equal(load.storage, { [word(0n)]: plain(f.callee).padStart(64, '0') });
  assert.ok(logs.some((l) => l.op === 'REVERT' && l.depth === 2), 'boom reverts');
  assert.equal(logs.filter((l) => l.depth === 1 && ['CALL', 'STATICCALL', 'DELEGATECALL'].includes(l.op)).map((l) => l.op),
    ['CALL', 'STATICCALL', 'STATICCALL', 'DELEGATECALL']);
  assert.not.ok(logs.filter((l) => l.op !== 'SLOAD' && l.op !== 'SSTORE').some((l) => 'storage' in l));
});

/** 21000 plus 4 per zero byte and 16 per other byte of calldata. */
function intrinsicGas(input: string): number {
  const bytes = Buffer.from(input.slice(2), 'hex');
  return bytes.reduce((gas, b) => gas + (b === 0 ? 4 : 16), 21_000);
}

Debug('struct logs of a reverted transaction', async () => {
  const f = await chain();
  const t = await call('debug_traceTransaction', [f.failing.transactionHash]);
  assert.is(t.failed, true);
  assert.is(t.reverted, true);
  assert.is(t.error, 'revert');
  assert.is(t.returnValue.slice(0, 8), '08c379a0', 'Error(string) revert data');
  assert.is(t.structLogs[t.structLogs.length - 1].op, 'REVERT');
});

Debug('disableStack, disableMemory and disableStorage (booleans, strings, or inside tracerConfig) remove those fields', async () => {
  const f = await chain();
  const full = await call('debug_traceTransaction', [f.nested.transactionHash]);
  for (const opts of [
    { disableStack: true, disableMemory: true, disableStorage: true },
    { disableStack: 'true', disableMemory: 'TRUE', disableStorage: 'true', tracer: 'rskTracer' },
    { tracerConfig: { disableStack: true, disableMemory: true, disableStorage: true } },
  ]) {
    const t = await call('debug_traceTransaction', [f.nested.transactionHash, opts]);
    assert.is(t.structLogs.length, full.structLogs.length);
    for (const l of t.structLogs) assert.equal(Object.keys(l).sort(), ['depth', 'gas', 'gasCost', 'op', 'pc']);
  }
  const onlyStack = await call('debug_traceTransaction', [f.nested.transactionHash, { disableMemory: true, disableStorage: false, disableStack: false }]);
  assert.equal(onlyStack.structLogs.map((l: any) => l.stack), full.structLogs.map((l: any) => l.stack));
  assert.ok(onlyStack.structLogs.every((l: any) => !('memory' in l)));
});

Debug('block traces: one per transaction, in order, each equal to the transaction trace (replayed after the earlier ones)', async () => {
  const f = await chain();
  const hashes: string[] = f.block.transactions;
  assert.equal(hashes, [f.nested, f.failing, f.kill, f.transfer].map((r) => r.transactionHash));
  const calls = await call('debug_traceBlockByHash', [f.block.hash, { tracer: 'callTracer' }]);
  assert.equal(calls.map((c: any) => c.txHash), hashes);
  for (const [i, h] of hashes.entries()) {
    assert.equal(calls[i].result, await call('debug_traceTransaction', [h, { tracer: 'callTracer' }]), `transaction ${i}`);
  }
  assert.equal(calls[3].result.gasUsed, '0x5208');
  // Each replayed transaction used the gas its import did: the replay saw what the ones before it left.
  for (const [i, r] of [f.nested, f.failing, f.kill, f.transfer].entries()) assert.is(calls[i].result.gasUsed, r.gasUsed, `transaction ${i}`);
  const structs = await call('debug_traceBlockByNumber', [f.block.number, { disableMemory: true }]);
  assert.is(structs.length, 4);
  assert.equal(structs[2], await call('debug_traceTransaction', [f.kill.transactionHash, { disableMemory: true }]));
  assert.equal(structs[3].structLogs, [], 'a plain transfer runs no code');
  assert.equal(await call('debug_traceBlockByNumber', ['earliest']), []);
  assert.equal(await call('debug_traceBlockByNumber', [f.block.hash, { tracer: 'callTracer' }]), calls);
});

Debug('unknown transactions and blocks give null', async () => {
  assert.is(await call('debug_traceTransaction', [UNKNOWN]), null);
  assert.is(await call('debug_traceBlockByHash', [UNKNOWN]), null);
  assert.is(await call('debug_traceBlockByNumber', ['0xffffff']), null);
});

Debug('malformed options and hashes are -32602 naming the problem; the node keeps serving', async () => {
  const f = await chain();
  const h = f.nested.transactionHash;
  const cases: [unknown[], RegExp][] = [
    [[h, { tracer: 'prestateTracer' }], /Invalid tracer type: prestateTracer/],
    [[h, { tracer: 7 }], /Invalid tracer type/],
    [[h, 'callTracer'], /tracer options object/],
    [[h, { disableStack: 'yes' }], /disableStack must be true or false/],
    [[h, { tracerConfig: [] }], /tracerConfig must be an object/],
    [['0x1234'], /32-byte hash/],
    [[h, {}, 1], /too many arguments/],
  ];
  for (const [params, message] of cases) {
    const err = await fails('debug_traceTransaction', params);
    assert.is(err.code, -32602, JSON.stringify(params));
    assert.match(err.message, message);
  }
  assert.match(await call('eth_blockNumber'), /^0x/);
});

Debug('tracing writes nothing: head, state and receipts stay as they were', async () => {
  const f = await chain();
  const before = await Promise.all([
    call('eth_getBlockByNumber', ['latest', false]), call('eth_getStorageAt', [f.callee, '0x0', 'latest']),
    call('eth_getBalance', [sender, 'latest']), call('eth_getTransactionReceipt', [f.kill.transactionHash]),
  ]);
  await call('debug_traceBlockByHash', [f.block.hash]);
  await call('debug_traceTransaction', [f.kill.transactionHash, { tracer: 'callTracer' }]);
  const after = await Promise.all([
    call('eth_getBlockByNumber', ['latest', false]), call('eth_getStorageAt', [f.callee, '0x0', 'latest']),
    call('eth_getBalance', [sender, 'latest']), call('eth_getTransactionReceipt', [f.kill.transactionHash]),
  ]);
  assert.equal(after, before);
});

Debug('debug_wireProtocolQueueSize: a node without peers has no bytes waiting to be sent', async () => {
  assert.is(await call('debug_wireProtocolQueueSize'), '0x0');
});

Debug.run();

/** A peer manager whose host has `queued` bytes waiting; it records what it was asked. */
function fakePeers(queued: number) {
  const asked: string[] = [];
  const ref = {
    name: 'peers',
    tell: () => undefined,
    ask: async (type: string) => {
      asked.push(type);
      return { peerId: 'fake', multiaddrs: [], listening: true, queued };
    },
  } as unknown as ActorRef<PeerManagerProtocol>;
  return { ref, asked };
}

/** Only the peer manager is used by this method; the tracing dependencies stay unused. */
const methodsWith = (peers: ActorRef<PeerManagerProtocol>) => debugModule({ reader: {} as never, replayer: {} as never, gasCap: 0n, peers });

const Queue = suite('debug_wireProtocolQueueSize');

Queue('answers the bytes the p2p host has queued, as a quantity', async () => {
  for (const [queued, expected] of [[0, '0x0'], [1234, '0x4d2'], [1 << 20, '0x100000']] as const) {
    const peers = fakePeers(queued);
    assert.is(await methodsWith(peers.ref).debug_wireProtocolQueueSize.call([]), expected);
    assert.equal(peers.asked, ['p2p.info']);
  }
});

Queue('takes no parameters: -32602', async () => {
  const err = await methodsWith(fakePeers(0).ref).debug_wireProtocolQueueSize.call([1]).catch((e: { code: number }) => e);
  assert.is((err as { code: number }).code, -32602);
});

Queue.run();

/**
 * trace_* (parity style) against a real node: call, create and suicide entries with traceAddress and
 * subtraces for transactions whose calls are known (test/fixtures/Tracing.sol), whole blocks, and
 * trace_filter's block range, addresses, after and count, with its limits.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../../helpers/node.ts';
import { deployTraceFixture, KILL_VALUE, OTHER, SENDER, type TraceFixture } from '../../helpers/traceFixture.ts';

const Trace = suite('trace_*');
const { url, call, fails, stop } = lazyNode();
let fixture: Promise<TraceFixture> | undefined;
const chain = async () => (fixture ??= deployTraceFixture(await url()));
Trace.after(stop);

const sender = SENDER.address.toLowerCase();
const hexQ = (n: bigint | number) => `0x${n.toString(16)}`;
const shape = (traces: any[]) => traces.map((t) => [t.type, t.action.callType ?? t.action.creationMethod ?? null, t.traceAddress, t.subtraces, t.error ?? null]);

Trace('trace_transaction: the call tree depth-first, with positions, the reverted static call and block fields', async () => {
  const f = await chain();
  const traces = await call('trace_transaction', [f.nested.transactionHash]);
  assert.equal(shape(traces), [
    ['call', 'call', [], 4, null],
    ['call', 'call', [0], 0, null],
    ['call', 'staticcall', [1], 0, 'Reverted'],
    ['call', 'staticcall', [2], 0, null],
    ['call', 'delegatecall', [3], 0, null],
  ]);
  for (const t of traces) {
    assert.is(t.blockHash, f.block.hash);
    assert.is(t.blockNumber, Number(f.block.number));
    assert.is(t.transactionHash, f.nested.transactionHash);
    assert.is(t.transactionPosition, Number(f.nested.transactionIndex));
    assert.ok('result' in t);
  }
  const [top, touch, boom] = traces;
  assert.equal(Object.keys(top.action).sort(), ['callType', 'from', 'gas', 'input', 'to', 'value']);
  assert.is(top.action.from, sender);
  assert.is(top.action.to, f.caller);
  assert.is(top.result.output, `0x${'0'.repeat(63)}a`);
  assert.ok(BigInt(top.result.gasUsed) < BigInt(f.nested.gasUsed), 'execution gas, without the intrinsic cost');
  assert.is(touch.action.from, f.caller);
  assert.is(touch.action.to, f.callee);
  assert.is(boom.result, null);
});

Trace('a reverted transaction: error Reverted and result null at the top; its child call succeeded, with the gas the struct log shows it used', async () => {
  const f = await chain();
  const traces = await call('trace_transaction', [f.failing.transactionHash]);
  assert.equal(shape(traces), [['call', 'call', [], 1, 'Reverted'], ['call', 'call', [0], 0, null]]);
  assert.is(traces[0].result, null);
  // The child frame's steps in the struct log (a separate tracer): the gas at its first step less what its last step left.
  const { structLogs } = await call('debug_traceTransaction', [f.failing.transactionHash]);
  const child = (structLogs as { depth: number; gas: number; gasCost: number }[]).filter((l) => l.depth === 2);
  const last = child[child.length - 1]!;
  assert.ok(child.length > 10, 'touch(1) ran in the child frame');
  assert.is(traces[1].result.gasUsed, hexQ(child[0]!.gas - (last.gas - last.gasCost)));
  assert.is(traces[1].result.output, `0x${'0'.repeat(63)}2`, 'touch(1) returns 2');
});

Trace('create and suicide entries: creationMethod, created address and code; address, refundAddress, balance', async () => {
  const f = await chain();
  const traces = await call('trace_transaction', [f.kill.transactionHash]);
  assert.equal(shape(traces), [
    ['call', 'call', [], 2, null],
    ['create', 'create', [0], 0, null],
    ['call', 'call', [1], 1, null],
    ['suicide', null, [1, 0], 0, null],
  ]);
  const [top, create, die, suicide] = traces;
  assert.is(top.action.value, hexQ(KILL_VALUE));
  assert.equal(Object.keys(create.action).sort(), ['creationMethod', 'from', 'gas', 'init', 'value']);
  assert.is(create.action.from, f.caller);
  assert.is(create.result.address, f.doomed);
  assert.ok(create.action.init.endsWith(create.result.code.slice(2)));
  assert.is(die.action.to, f.doomed);
  assert.equal(suicide.action, { address: f.doomed, refundAddress: sender, balance: hexQ(KILL_VALUE) });
  assert.is(suicide.result, null);
});

Trace('trace_block: every transaction in order; [] for genesis, null for an unknown block', async () => {
  const f = await chain();
  const expected = [];
  for (const h of f.block.transactions) expected.push(...await call('trace_transaction', [h]));
  assert.equal(await call('trace_block', [f.block.number]), expected);
  assert.equal(await call('trace_block', [f.block.hash]), expected);
  const transfer = expected[expected.length - 1];
  assert.equal([transfer.type, transfer.action.from, transfer.action.to, transfer.action.value, transfer.transactionPosition], ['call', OTHER.address.toLowerCase(), sender, '0x1', 3]);
  assert.equal(await call('trace_block', ['earliest']), []);
  assert.is(await call('trace_block', [`0x${'ab'.repeat(32)}`]), null);
  assert.is(await call('trace_block', ['0xffffff']), null);
  assert.is(await call('trace_transaction', [`0x${'ab'.repeat(32)}`]), null);
});

Trace('trace_filter: block range, from/to addresses, after and count', async () => {
  const f = await chain();
  const range = { fromBlock: f.deploy.blockNumber, toBlock: f.block.number };
  const all = await call('trace_filter', [range]);
  const deployTraces = await call('trace_transaction', [f.deploy.transactionHash]);
  assert.equal(all, [...deployTraces, ...await call('trace_block', [f.block.number])]);
  assert.equal(await call('trace_filter', [{}]), all, 'earliest to latest: the same traces (earlier blocks have none)');

  const toCallee = await call('trace_filter', [{ ...range, toAddress: [f.callee] }]);
  assert.ok(toCallee.length >= 5);
  assert.ok(toCallee.every((t: any) => t.action.to === f.callee || t.result?.address === f.callee));
  assert.ok(toCallee.some((t: any) => t.type === 'create'), 'the creation of Callee matches on its address');

  const fromOther = await call('trace_filter', [{ ...range, fromAddress: [OTHER.address] }]);
  assert.equal(fromOther.map((t: any) => t.transactionHash), [f.transfer.transactionHash]);
  const both = await call('trace_filter', [{ ...range, fromAddress: [f.caller], toAddress: [f.doomed] }]);
  assert.equal(shape(both), [['create', 'create', [0], 0, null], ['call', 'call', [1], 1, null]]);
  const suicides = await call('trace_filter', [{ ...range, fromAddress: [f.doomed] }]);
  assert.equal(suicides.map((t: any) => t.type), ['suicide']);

  assert.equal(await call('trace_filter', [{ ...range, after: 2, count: 3 }]), all.slice(2, 5));
  assert.equal(await call('trace_filter', [{ ...range, after: '0x2', count: '0x3' }]), all.slice(2, 5));
  assert.equal(await call('trace_filter', [{ ...range, after: all.length }]), []);
  assert.equal(await call('trace_filter', [{ fromBlock: '0x0', toBlock: '0x0' }]), []);
});

Trace('trace_filter refuses bad input with -32602: counts, negative after, reversed or oversized ranges, bad addresses', async () => {
  const cases: [unknown, RegExp][] = [
    [null, /Invalid trace_filter parameters/],
    [[], /Invalid trace_filter parameters/],
    [{ count: 10_001 }, /Count value too big. Maximum 10000 traces allowed/],
    [{ after: -1 }, /After value cannot be negative/],
    [{ fromBlock: '0x2', toBlock: '0x1' }, /fromBlock cannot be greater than toBlock/],
    [{ fromBlock: '0x0', toBlock: '0x3e8' }, /block range too large: .* at most 1000 blocks/],
    [{ fromAddress: ['0x12'] }, /fromAddress\[0\].*20-byte address/],
    [{ toAddress: '0x1111111111111111111111111111111111111111' }, /toAddress.*array of addresses/],
    [{ fromBlock: 'yesterday' }, /fromBlock/],
  ];
  for (const [filter, message] of cases) {
    const err = await fails('trace_filter', [filter]);
    assert.is(err.code, -32602, JSON.stringify(filter));
    assert.match(err.message, message);
  }
  assert.match(await call('eth_blockNumber'), /^0x/);
});

Trace.run();

/** The transaction lifecycle machine: every transition, with simulated time (no sleeps). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, getNextSnapshot, SimulatedClock } from 'xstate';
import { lifecycleState, transactionMachine, type TxMachineInput } from '../../src/machines/transaction.machine.ts';

const Tx = suite('transaction machine');

const INPUT: TxMachineInput = { hash: '0xaa', receivedAtBlock: 5n, maxAgeBlocks: 10n, maxAgeMs: 650_000, confirmDepth: 3n };

function start(clock = new SimulatedClock(), input: Partial<TxMachineInput> = {}) {
  return createActor(transactionMachine, { input: { ...INPUT, ...input }, clock }).start();
}
const state = (actor: ReturnType<typeof start>) => lifecycleState(actor.getSnapshot().value);

Tx('a validated executable transaction is pending; one behind a nonce gap is queued', () => {
  const a = start();
  assert.is(state(a), 'received');
  a.send({ type: 'tx.validated', executable: true });
  assert.is(state(a), 'pending');
  const b = start();
  b.send({ type: 'tx.validated', executable: false });
  assert.is(state(b), 'queued');
  b.send({ type: 'tx.promoted' });
  assert.is(state(b), 'pending');
  b.send({ type: 'tx.demoted' });
  assert.is(state(b), 'queued');
});

Tx('a rejected transaction ends with its reason', () => {
  const a = start();
  a.send({ type: 'tx.rejected', reason: 'transaction nonce too low' });
  assert.is(state(a), 'rejected');
  assert.is(a.getSnapshot().status, 'done');
  assert.is(a.getSnapshot().context.reason, 'transaction nonce too low');
});

Tx('included, then back to pending when its block is reorganised away, with a fresh age', () => {
  const clock = new SimulatedClock();
  const a = start(clock);
  a.send({ type: 'tx.validated', executable: true });
  clock.increment(600_000);
  a.send({ type: 'tx.included', blockHash: '0xbb', number: 6n });
  assert.is(state(a), 'included');
  assert.equal(a.getSnapshot().context.block, { hash: '0xbb', number: 6n });
  clock.increment(100_000); // the age timer stopped when it left `validated`
  assert.is(state(a), 'included');
  a.send({ type: 'chain.reorged', number: 7n });
  assert.is(state(a), 'pending');
  assert.is(a.getSnapshot().context.receivedAtBlock, 7n);
  assert.is(a.getSnapshot().context.block, undefined);
  clock.increment(649_999);
  assert.is(state(a), 'pending');
  clock.increment(1);
  assert.is(state(a), 'dropped');
});

Tx('an included transaction is confirmed once its block is deep enough', () => {
  const a = start();
  a.send({ type: 'tx.validated', executable: true });
  a.send({ type: 'tx.included', blockHash: '0xbb', number: 6n });
  a.send({ type: 'chain.advanced', number: 8n });
  assert.is(state(a), 'included');
  a.send({ type: 'chain.advanced', number: 9n });
  assert.is(state(a), 'confirmed');
  assert.is(a.getSnapshot().status, 'done');
});

Tx('replaced records its successor', () => {
  const a = start();
  a.send({ type: 'tx.validated', executable: false });
  a.send({ type: 'tx.replaced', by: '0xcc' });
  assert.is(state(a), 'replaced');
  assert.is(a.getSnapshot().context.replacedBy, '0xcc');
});

Tx('dropped: evicted, or expired by time, or by blocks', () => {
  const a = start();
  a.send({ type: 'tx.validated', executable: true });
  a.send({ type: 'tx.dropped', reason: 'evicted', detail: 'pool full' });
  assert.is(state(a), 'dropped');
  assert.is(a.getSnapshot().context.dropReason, 'evicted');

  const clock = new SimulatedClock();
  const b = start(clock);
  b.send({ type: 'tx.validated', executable: false });
  clock.increment(649_999);
  assert.is(state(b), 'queued');
  clock.increment(1);
  assert.is(state(b), 'dropped');
  assert.is(b.getSnapshot().context.dropReason, 'expired');

  const c = start();
  c.send({ type: 'tx.validated', executable: false });
  c.send({ type: 'chain.advanced', number: 15n }); // 10 blocks after block 5: not yet more than 10
  assert.is(state(c), 'queued');
  c.send({ type: 'chain.advanced', number: 16n });
  assert.is(state(c), 'dropped');
  assert.is(c.getSnapshot().context.dropReason, 'expired');
});

Tx('moving between pending and queued does not restart the age', () => {
  const clock = new SimulatedClock();
  const a = start(clock);
  a.send({ type: 'tx.validated', executable: false });
  clock.increment(400_000);
  a.send({ type: 'tx.promoted' });
  clock.increment(250_000);
  assert.is(state(a), 'dropped');
});

Tx('events that do not apply change nothing', () => {
  const received = transactionMachine.resolveState({ value: 'received', context: { ...INPUT } });
  for (const e of [{ type: 'tx.promoted' }, { type: 'tx.included', blockHash: '0x1', number: 1n }, { type: 'chain.reorged', number: 1n }] as const) {
    assert.is(lifecycleState(getNextSnapshot(transactionMachine, received, e).value), 'received');
  }
  const a = start();
  a.send({ type: 'tx.rejected', reason: 'x' });
  a.send({ type: 'tx.validated', executable: true });
  assert.is(state(a), 'rejected');
});

Tx.run();

/**
 * A machine run as a snapshot (src/machines/snapshotRun.ts) goes where an actor of the same machine goes,
 * event for event, and its delayed events wait on the clock, are cancelled with the state that set them,
 * and reach its owner, who sends them. Simulated time, no sleeps.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, setup, SimulatedClock } from 'xstate';
import { SnapshotRunner, type MachineRun } from '../../src/machines/snapshotRun.ts';
import { transactionMachine, type TxMachineEvent, type TxMachineInput } from '../../src/machines/transaction.machine.ts';

const Run = suite('machine run as a snapshot');

const INPUT: TxMachineInput = { hash: '0xaa', receivedAtBlock: 5n, maxAgeBlocks: 10n, maxAgeMs: 650_000, confirmDepth: 3n };
type TxRun = MachineRun<typeof transactionMachine>;

function runner(clock: SimulatedClock) {
  const due: { run: TxRun; event: TxMachineEvent }[] = [];
  const machines = new SnapshotRunner(transactionMachine, clock, (run, event) => due.push({ run, event }));
  return { machines, due };
}

const view = (s: { value: unknown; status: string; context: unknown }) => ({ value: s.value, status: s.status, context: s.context });

Run('every event sequence leads the snapshot where an actor goes, value, status and context', () => {
  const sequences: TxMachineEvent[][] = [
    [{ type: 'tx.rejected', reason: 'nonce too low' }],
    [{ type: 'tx.validated', executable: false }, { type: 'tx.promoted' }, { type: 'tx.demoted' }, { type: 'tx.replaced', by: '0xbb' }],
    [{ type: 'tx.validated', executable: true }, { type: 'tx.included', blockHash: '0xcc', number: 6n }, { type: 'chain.advanced', number: 7n },
      { type: 'chain.reorged', number: 7n }, { type: 'chain.advanced', number: 16n }, { type: 'chain.advanced', number: 17n }],
    [{ type: 'tx.validated', executable: true }, { type: 'tx.included', blockHash: '0xcc', number: 6n }, { type: 'chain.advanced', number: 9n }],
    [{ type: 'tx.validated', executable: true }, { type: 'tx.dropped', reason: 'evicted', detail: 'the pool is full' }],
  ];
  for (const events of sequences) {
    const actor = createActor(transactionMachine, { input: INPUT, clock: new SimulatedClock() }).start();
    const { machines } = runner(new SimulatedClock());
    const run = machines.start(INPUT);
    assert.equal(view(run.snapshot), view(actor.getSnapshot()));
    for (const event of events) {
      actor.send(event);
      machines.send(run, event);
      assert.equal(view(run.snapshot), view(actor.getSnapshot()), `after ${event.type} in ${events.map((e) => e.type).join(', ')}`);
    }
  }
});

Run('the age limit waits on the clock and reaches the owner, who sends it: the run ends as an expired actor does', () => {
  const clock = new SimulatedClock();
  const { machines, due } = runner(clock);
  const run = machines.start(INPUT);
  machines.send(run, { type: 'tx.validated', executable: true });
  clock.increment(INPUT.maxAgeMs - 1);
  assert.is(due.length, 0);
  assert.is(run.delayed.size, 1);
  clock.increment(1);
  assert.is(due.length, 1);
  assert.is(due[0]!.run, run);
  assert.equal(run.snapshot.value, { validated: 'pending' }, 'the owner, not the timer, changes the run');
  machines.send(run, due[0]!.event);

  const actorClock = new SimulatedClock();
  const actor = createActor(transactionMachine, { input: INPUT, clock: actorClock }).start();
  actor.send({ type: 'tx.validated', executable: true });
  actorClock.increment(INPUT.maxAgeMs);
  assert.equal(view(run.snapshot), view(actor.getSnapshot()));
  assert.is(run.snapshot.value, 'dropped');
  assert.is(run.delayed.size, 0);
});

Run('leaving the state that set the limit cancels it; entering it again starts a new one', () => {
  const clock = new SimulatedClock();
  const { machines, due } = runner(clock);
  const run = machines.start(INPUT);
  machines.send(run, { type: 'tx.validated', executable: true });
  clock.increment(1_000);
  machines.send(run, { type: 'tx.included', blockHash: '0xcc', number: 6n });
  assert.is(run.delayed.size, 0);
  clock.increment(INPUT.maxAgeMs);
  assert.is(due.length, 0);
  machines.send(run, { type: 'chain.reorged', number: 6n });
  assert.is(run.delayed.size, 1);
  clock.increment(INPUT.maxAgeMs - 1);
  assert.is(due.length, 0);
  clock.increment(1);
  assert.is(due.length, 1);
});

Run('a delayed event sent after the run moved on changes nothing', () => {
  const clock = new SimulatedClock();
  const { machines, due } = runner(clock);
  const run = machines.start(INPUT);
  machines.send(run, { type: 'tx.validated', executable: true });
  clock.increment(INPUT.maxAgeMs);
  // Mined before the owner's turn came.
  machines.send(run, { type: 'tx.included', blockHash: '0xcc', number: 6n });
  const before = view(run.snapshot);
  machines.send(run, due[0]!.event);
  assert.equal(view(run.snapshot), before);
  assert.is(run.snapshot.value, 'included');
});

Run('stop cancels what a run waits for', () => {
  const clock = new SimulatedClock();
  const { machines, due } = runner(clock);
  const run = machines.start(INPUT);
  machines.send(run, { type: 'tx.validated', executable: false });
  machines.stop(run);
  assert.is(run.delayed.size, 0);
  clock.increment(INPUT.maxAgeMs * 2);
  assert.is(due.length, 0);
});

Run('a machine whose actions need an actor is refused with its name and the action', () => {
  const logging = setup({ actions: { say: () => {} } }).createMachine({ id: 'talker', initial: 'a', states: { a: { on: { go: { target: 'b', actions: 'say' } } }, b: {} } });
  const machines = new SnapshotRunner(logging, new SimulatedClock(), () => {});
  const run = machines.start(undefined);
  assert.throws(() => machines.send(run, { type: 'go' }), /machine talker: action say cannot run outside an actor/);
});

Run.run();

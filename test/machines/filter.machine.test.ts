/** The filter lifecycle machine: every transition, with simulated time (no sleeps). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createActor, SimulatedClock } from 'xstate';
import { bufferedChanges, endReason, filterMachine, type FilterInput } from '../../src/machines/filter.machine.ts';

const Filter = suite('filter machine');

const INPUT: FilterInput = { id: '0xabc', kind: 'blocks', idleTimeoutMs: 1_000, maxBuffered: 5 };

function start(clock = new SimulatedClock(), input: Partial<FilterInput> = {}) {
  return createActor(filterMachine, { input: { ...INPUT, ...input }, clock }).start();
}
const buffered = (a: ReturnType<typeof start>) => bufferedChanges(a.getSnapshot().context);

Filter('a new filter is installed with nothing buffered', () => {
  const a = start();
  assert.ok(a.getSnapshot().matches('installed'));
  assert.equal(buffered(a), []);
});

Filter('changes are buffered in arrival order and a poll drains them', () => {
  const a = start();
  a.send({ type: 'filter.changed', entries: ['0x01', '0x02'] });
  a.send({ type: 'filter.changed', entries: [] });
  a.send({ type: 'filter.changed', entries: ['0x03'] });
  assert.equal(buffered(a), ['0x01', '0x02', '0x03']);
  assert.is(a.getSnapshot().context.count, 3);
  a.send({ type: 'filter.polled' });
  assert.equal(buffered(a), []);
  a.send({ type: 'filter.changed', entries: ['0x04'] });
  assert.equal(buffered(a), ['0x04']);
});

Filter('a poll restarts the idle timer; silence expires the filter', () => {
  const clock = new SimulatedClock();
  const a = start(clock);
  clock.increment(900);
  a.send({ type: 'filter.polled' });
  clock.increment(900);
  assert.ok(a.getSnapshot().matches('installed'), 'polled 900 ms ago: still installed');
  clock.increment(100);
  assert.ok(a.getSnapshot().matches('expired'));
  assert.is(a.getSnapshot().status, 'done');
  assert.match(endReason(a.getSnapshot().context, 'expired'), /not polled with eth_getFilterChanges for 1 s/);
});

Filter('eth_getFilterLogs (touched) also restarts the timer, without draining', () => {
  const clock = new SimulatedClock();
  const a = start(clock);
  a.send({ type: 'filter.changed', entries: ['0x01'] });
  clock.increment(999);
  a.send({ type: 'filter.touched' });
  clock.increment(999);
  assert.ok(a.getSnapshot().matches('installed'));
  assert.equal(buffered(a), ['0x01']);
});

Filter('new entries do not keep a filter alive: only polls do', () => {
  const clock = new SimulatedClock();
  const a = start(clock);
  for (let i = 0; i < 4; i++) {
    clock.increment(300);
    a.send({ type: 'filter.changed', entries: ['0x01'] });
  }
  assert.ok(a.getSnapshot().matches('expired'));
  assert.equal(buffered(a), [], 'an expired filter holds nothing');
});

Filter('uninstall ends the filter', () => {
  const a = start();
  a.send({ type: 'filter.changed', entries: ['0x01'] });
  a.send({ type: 'filter.uninstall' });
  assert.ok(a.getSnapshot().matches('uninstalled'));
  assert.is(a.getSnapshot().status, 'done');
  assert.equal(buffered(a), []);
});

Filter('at the buffer cap the filter ends as overflowed and frees its buffer', () => {
  const a = start();
  a.send({ type: 'filter.changed', entries: ['0x01', '0x02', '0x03'] });
  a.send({ type: 'filter.changed', entries: ['0x04', '0x05'] });
  assert.ok(a.getSnapshot().matches('installed'), 'exactly at the cap is still fine');
  a.send({ type: 'filter.changed', entries: ['0x06'] });
  assert.ok(a.getSnapshot().matches('overflowed'));
  assert.is(a.getSnapshot().status, 'done');
  assert.equal(buffered(a), []);
  assert.match(endReason(a.getSnapshot().context, 'overflowed'), /more than 5 changes waited for a poll/);
});

Filter('a final filter ignores further events', () => {
  const clock = new SimulatedClock();
  const a = start(clock);
  a.send({ type: 'filter.uninstall' });
  a.send({ type: 'filter.polled' });
  a.send({ type: 'filter.changed', entries: ['0x01'] });
  clock.increment(5_000);
  assert.ok(a.getSnapshot().matches('uninstalled'));
});

Filter.run();

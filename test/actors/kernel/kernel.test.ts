/** The actor kernel: ordering, ask deadlines, bounded mailboxes, supervision, event bus. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AskTimeoutError, createEventBus, MailboxFullError, spawn, type Behavior } from '../../../src/actors/kernel/index.ts';

type CounterProtocol = {
  tell: { type: 'add'; n: number } | { type: 'boom' } | { type: 'slow'; ms: number };
  ask: { get: { req: {}; res: number }; fail: { req: {}; res: never }; hang: { req: { ms: number }; res: string } };
};

const counter = (inits: { count: number }): Behavior<CounterProtocol, { total: number }> => ({
  init: () => { inits.count++; return { total: 0 }; },
  async onTell(s, msg) {
    if (msg.type === 'boom') throw new Error('boom');
    if (msg.type === 'slow') { await new Promise((r) => setTimeout(r, msg.ms)); return s; }
    await new Promise((r) => setImmediate(r)); // interleaving would show here if two ran at once
    return { total: s.total + msg.n };
  },
  onAsk: {
    get: (s) => [s, s.total],
    fail: () => { throw new Error('no'); },
    hang: async (s, { ms }) => { await new Promise((r) => setTimeout(r, ms)); return [s, 'done']; },
  },
});

const Kernel = suite('actor kernel');

Kernel('handles one message at a time, in order', async () => {
  const actor = spawn('c', counter({ count: 0 }));
  await actor.ready;
  for (let i = 1; i <= 100; i++) actor.ref.tell({ type: 'add', n: i });
  assert.is(await actor.ref.ask('get', {}), 5050);
  await actor.stop();
});

Kernel('a failed ask rejects its caller and the actor keeps serving', async () => {
  const actor = spawn('c', counter({ count: 0 }));
  await actor.ready;
  await actor.ref.ask('fail', {}).then(() => assert.unreachable(), (err) => assert.is(err.message, 'no'));
  actor.ref.tell({ type: 'add', n: 2 });
  assert.is(await actor.ref.ask('get', {}), 2);
  await actor.stop();
});

Kernel('ask has a deadline', async () => {
  const actor = spawn('c', counter({ count: 0 }));
  await actor.ready;
  const err = await actor.ref.ask('hang', { ms: 200 }, 20).catch((e) => e);
  assert.instance(err, AskTimeoutError);
  await actor.stop();
});

Kernel('a full mailbox refuses new messages at once', async () => {
  const actor = spawn('c', counter({ count: 0 }), { mailboxSize: 3 });
  await actor.ready;
  actor.ref.tell({ type: 'slow', ms: 50 });
  await new Promise((r) => setTimeout(r, 5)); // the slow message is now in flight, out of the mailbox
  actor.ref.tell({ type: 'add', n: 1 });
  actor.ref.tell({ type: 'add', n: 1 });
  actor.ref.tell({ type: 'add', n: 1 });
  assert.throws(() => actor.ref.tell({ type: 'add', n: 1 }), (e: unknown) => e instanceof MailboxFullError);
  await new Promise((r) => setTimeout(r, 80)); // the queue drains
  assert.is(await actor.ref.ask('get', {}), 3, 'the refused message was not delivered');
  await actor.stop();
});

Kernel('restart policy re-initialises after a failure, escalate stops the actor', async () => {
  const inits = { count: 0 };
  const restarting = spawn('r', counter(inits), { policy: { kind: 'restart', maxRestarts: 2, withinMs: 10_000, backoffMs: () => 1 } });
  await restarting.ready;
  restarting.ref.tell({ type: 'add', n: 5 });
  restarting.ref.tell({ type: 'boom' });
  assert.is(await restarting.ref.ask('get', {}), 0, 'state is fresh after the restart');
  assert.is(inits.count, 2);
  await restarting.stop();

  let escalated = '';
  const fragile = spawn('f', counter({ count: 0 }), { policy: { kind: 'escalate' }, onEscalate: (name) => { escalated = name; } });
  await fragile.ready;
  fragile.ref.tell({ type: 'boom' });
  const err = await fragile.ref.ask('get', {}).catch((e) => e);
  assert.instance(err, Error);
  assert.is(escalated, 'f');
  await fragile.stop();
});

Kernel('a restart releases what the failed state held (onStop) before the new state starts; stop releases the last', async () => {
  // Each state holds a timer, as the miner's interval and the block sync's progress log do.
  const live = new Set<NodeJS.Timeout>();
  const events: string[] = [];
  const holding: Behavior<CounterProtocol, { total: number; timer: NodeJS.Timeout }> = {
    init: () => {
      events.push(`init with ${live.size} held`);
      const timer = setInterval(() => {}, 60_000).unref();
      live.add(timer);
      return { total: 0, timer };
    },
    onTell: (s, msg) => { if (msg.type === 'boom') throw new Error('boom'); return s; },
    onAsk: { get: (s) => [s, live.size], fail: () => { throw new Error('no'); }, hang: (s) => [s, ''] },
    onStop: (s) => { clearInterval(s.timer); live.delete(s.timer); },
  };
  const actor = spawn('h', holding, { policy: { kind: 'restart', maxRestarts: 3, withinMs: 10_000, backoffMs: () => 1 } });
  await actor.ready;
  actor.ref.tell({ type: 'boom' });
  actor.ref.tell({ type: 'boom' });
  assert.is(await actor.ref.ask('get', {}), 1, 'one state holds a timer, not three');
  assert.equal(events, ['init with 0 held', 'init with 0 held', 'init with 0 held']);
  await actor.stop();
  assert.is(live.size, 0);
});

Kernel('the bus delivers events as tells into the subscriber mailbox', async () => {
  const bus = createEventBus<{ type: 'tick'; n: number }>();
  const actor = spawn('c', counter({ count: 0 }));
  await actor.ready;
  bus.subscribe(actor.ref, (e) => ({ type: 'add' as const, n: e.n }));
  bus.publish({ type: 'tick', n: 4 });
  bus.publish({ type: 'tick', n: 6 });
  assert.is(await actor.ref.ask('get', {}), 10);
  await actor.stop();
});

Kernel.run();

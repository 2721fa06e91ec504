/**
 * The filter supervisor alone, driven through its protocol with simulated time and hand-made live
 * events (blocks are fake references holding a hash, a number and a bloom): install, poll and uninstall of block and
 * pending-transaction filters, pending logs handed in with a poll, expiry of idle filters, the
 * buffer limit, the reasons a gone filter's id answers with, and the empty restart after a failure.
 * Log filters over a real chain, reorgs included: logs.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock } from 'xstate';
import { ENDED_REMEMBERED } from '../../../src/actors/filterSupervisor/behavior.ts';
import { DEFAULT_FILTER_OPTIONS, spawnFilterSupervisor, type FilterOptions, type FilterSupervisorProtocol } from '../../../src/actors/filterSupervisor/index.ts';
import type { Actor } from '../../../src/actors/kernel/index.ts';
import type { LiveEvent } from '../../../src/actors/liveEvents.ts';
import type { Block } from '../../../src/chain/codec/block.ts';
import { fromHex, type Hex } from '../../../src/chain/codec/bytes.ts';
import { LiveLogSource, type ReceiptSource } from '../../../src/chain/logs/liveLogs.ts';
import type { LogEntry } from '../../../src/chain/logs/logFilter.ts';
import { NodeError } from '../../../src/errors.ts';

const Filters = suite('filter supervisor');
const QUANTITY = /^0x[1-9a-f][0-9a-f]*$/;
const stops: (() => Promise<void>)[] = [];
Filters.after(async () => { for (const stop of stops) await stop(); });

/** A 32-byte hash of one repeated byte. */
const h = (byte: number): Hex => `0x${byte.toString(16).padStart(2, '0').repeat(32)}`;
/** A block as the supervisor and the live log source read it: its hash, number and bloom (every bit set: its receipts are read). */
const block = (byte: number) => ({ hash: fromHex(h(byte)), header: { number: BigInt(byte), logsBloom: new Uint8Array(256).fill(0xff) } }) as unknown as Block;
const heads = (added: number[], removed: number[] = []): LiveEvent => ({ type: 'chain.headChanged', added: added.map(block), removed: removed.map(block) });
const txAdded = (byte: number): LiveEvent => ({ type: 'pool.txAdded', hash: h(byte) });

/** No block here has receipts; a log filter sees nothing in these head changes. */
const NO_RECEIPTS: ReceiptSource = { getReceipts: async () => undefined };

interface Harness {
  readonly actor: Actor<FilterSupervisorProtocol>;
  readonly clock: SimulatedClock;
  install(kind: 'blocks' | 'pendingTransactions'): Promise<Hex>;
  tell(...events: LiveEvent[]): void;
  changes(id: Hex, pendingLogs?: readonly LogEntry[]): Promise<unknown[]>;
}

async function supervisor(opts: Partial<FilterOptions> = {}, receipts = NO_RECEIPTS): Promise<Harness> {
  const clock = new SimulatedClock();
  const actor = spawnFilterSupervisor({ ...DEFAULT_FILTER_OPTIONS, ...opts }, { logs: new LiveLogSource(receipts), clock });
  await actor.ready;
  stops.push(() => actor.stop());
  return {
    actor, clock,
    install: (kind) => actor.ref.ask('filter.install', { kind }),
    tell: (...events) => { for (const e of events) actor.ref.tell(e); },
    changes: (id, pendingLogs) => actor.ref.ask('filter.changes', { id, pendingLogs }),
  };
}

/** The message of the FILTER_NOT_FOUND error `asked` must fail with. */
async function notFound(asked: Promise<unknown>): Promise<string> {
  const err = await asked.then(() => assert.unreachable('expected FILTER_NOT_FOUND'), (e: unknown) => e);
  assert.instance(err, NodeError);
  assert.is((err as NodeError).kind, 'FILTER_NOT_FOUND');
  return (err as NodeError).message;
}

Filters('ids are distinct QUANTITY values; a new filter has nothing to report', async () => {
  const s = await supervisor();
  const ids = [await s.install('blocks'), await s.install('pendingTransactions'), await s.install('blocks')];
  for (const id of ids) assert.match(id, QUANTITY);
  assert.is(new Set(ids).size, ids.length);
  for (const id of ids) assert.equal(await s.changes(id), []);
});

Filters('a block filter reports the hashes of blocks that joined the chain, in order, once', async () => {
  const s = await supervisor();
  const id = await s.install('blocks');
  s.tell(heads([1, 2]), txAdded(0xaa), heads([3]));
  assert.equal(await s.changes(id), [h(1), h(2), h(3)], 'no pending transaction in a block filter');
  assert.equal(await s.changes(id), [], 'nothing new since the previous poll');
  // A reorg: the blocks that left are not reported again, those that joined are.
  s.tell(heads([0x13, 0x14], [3, 2]));
  assert.equal(await s.changes(id), [h(0x13), h(0x14)]);
});

Filters('a pending-transaction filter reports transactions entering the pending set, in arrival order, not blocks', async () => {
  const s = await supervisor();
  const id = await s.install('pendingTransactions');
  s.tell(txAdded(0xa1), heads([1]), txAdded(0xa2), txAdded(0xa3));
  assert.equal(await s.changes(id), [h(0xa1), h(0xa2), h(0xa3)]);
  assert.equal(await s.changes(id), []);
});

Filters('each filter has its own buffer and sees only what came after its install', async () => {
  const s = await supervisor();
  const early = await s.install('blocks');
  s.tell(heads([1]));
  const late = await s.install('blocks');
  s.tell(heads([2]));
  assert.equal(await s.changes(late), [h(2)]);
  assert.equal(await s.changes(early), [h(1), h(2)], 'polling one filter leaves the other\'s changes');
});

Filters('pending logs handed in with a poll come after the buffered changes, each reported once while it stays pending', async () => {
  const s = await supervisor();
  const id = await s.install('blocks');
  const pendingLog = (txByte: number, logIndex: number): LogEntry => ({
    blockHash: h(0xee), blockNumber: 9n, txHash: h(txByte), txIndex: 0, logIndex, address: `0x${'11'.repeat(20)}`, topics: [], data: '0x', pending: true,
  });
  const [p1, p2] = [pendingLog(0xb1, 0), pendingLog(0xb2, 1)];
  s.tell(heads([1]));
  assert.equal(await s.changes(id, [p1]), [h(1), { log: p1, removed: false }]);
  assert.equal(await s.changes(id, [p1, p2]), [{ log: p2, removed: false }], 'p1 was reported by the previous poll');
  assert.equal(await s.changes(id, [p1, p2]), []);
});

Filters('uninstall answers true once, then false; the id then says it was uninstalled; others keep working', async () => {
  const s = await supervisor();
  const [gone, kept] = [await s.install('blocks'), await s.install('blocks')];
  assert.is(await s.actor.ref.ask('filter.uninstall', { id: gone }), true);
  assert.is(await s.actor.ref.ask('filter.uninstall', { id: gone }), false);
  assert.match(await notFound(s.changes(gone)), `filter not found: ${gone} (it was uninstalled)`);
  assert.match(await notFound(s.actor.ref.ask('filter.definition', { id: gone })), 'it was uninstalled');
  s.tell(heads([1]));
  assert.equal(await s.changes(kept), [h(1)]);
});

Filters('an id never installed: not found, saying so; uninstalling it answers false', async () => {
  const s = await supervisor();
  assert.match(await notFound(s.changes('0x1234')), 'filter not found: 0x1234 (it was never installed, or the node restarted since)');
  assert.is(await s.actor.ref.ask('filter.uninstall', { id: '0x1234' }), false);
});

Filters('filter.definition answers what was installed', async () => {
  const s = await supervisor();
  const [blocks, txs] = [await s.install('blocks'), await s.install('pendingTransactions')];
  assert.equal(await s.actor.ref.ask('filter.definition', { id: blocks }), { kind: 'blocks' });
  assert.equal(await s.actor.ref.ask('filter.definition', { id: txs }), { kind: 'pendingTransactions' });
});

Filters('a filter not polled for the idle timeout expires: its buffer is gone and its id says why', async () => {
  const s = await supervisor({ idleTimeoutMs: 1_000 });
  const id = await s.install('pendingTransactions');
  s.tell(txAdded(0xa1));
  s.clock.increment(999);
  assert.equal(await s.changes(id), [h(0xa1)], 'polled 1 ms before it would expire');
  s.tell(txAdded(0xa2));
  s.clock.increment(1_000);
  assert.match(await notFound(s.changes(id)), `filter not found: ${id} (it expired: not polled with eth_getFilterChanges for 1 s)`);
  assert.is(await s.actor.ref.ask('filter.uninstall', { id }), false, 'an expired filter cannot be uninstalled again');
  // Events after the expiry reach no one and fail nothing.
  s.tell(txAdded(0xa3));
  assert.match(await notFound(s.changes(id)), 'it expired');
});

Filters('polls and definition reads restart the idle timer; each filter has its own', async () => {
  const s = await supervisor({ idleTimeoutMs: 1_000 });
  const [polled, read, idle] = [await s.install('blocks'), await s.install('blocks'), await s.install('blocks')];
  for (let i = 0; i < 3; i++) {
    s.clock.increment(600);
    await s.changes(polled);
    await s.actor.ref.ask('filter.definition', { id: read });
  }
  s.tell(heads([1]));
  assert.equal(await s.changes(polled), [h(1)]);
  assert.equal(await s.changes(read), [h(1)], 'a definition read keeps the filter and its buffer');
  assert.match(await notFound(s.changes(idle)), 'it expired');
});

Filters('a filter with more than maxBuffered changes waiting is dropped; at the limit it is kept', async () => {
  const s = await supervisor({ maxBuffered: 3 });
  const [full, over] = [await s.install('pendingTransactions'), await s.install('pendingTransactions')];
  s.tell(txAdded(1), txAdded(2), txAdded(3));
  assert.equal(await s.changes(full), [h(1), h(2), h(3)], 'exactly maxBuffered is kept');
  s.tell(txAdded(4));
  assert.equal(await s.changes(full), [h(4)]);
  assert.match(await notFound(s.changes(over)), `filter not found: ${over} (it was dropped: more than 3 changes waited for a poll)`);
  // One head change bringing more than the limit at once drops a block filter as well.
  const blocks = await s.install('blocks');
  s.tell(heads([1, 2, 3, 4]));
  assert.match(await notFound(s.changes(blocks)), 'it was dropped');
});

Filters(`why a filter ended is remembered for the last ${ENDED_REMEMBERED} ended filters`, async () => {
  const s = await supervisor();
  const ended: Hex[] = [];
  for (let i = 0; i <= ENDED_REMEMBERED; i++) {
    const id = await s.install('blocks');
    await s.actor.ref.ask('filter.uninstall', { id });
    ended.push(id);
  }
  assert.match(await notFound(s.changes(ended[0]!)), 'it was never installed, or the node restarted since');
  assert.match(await notFound(s.changes(ended[1]!)), 'it was uninstalled');
  assert.match(await notFound(s.changes(ended.at(-1)!)), 'it was uninstalled');
});

Filters('after a failure the supervisor restarts empty: earlier ids are not found, new filters work', async () => {
  // The receipts of block 1 cannot be read: a log filter's share of that head change fails.
  const s = await supervisor({}, { getReceipts: async (hash) => { if (hash[0] === 1) throw new Error('the store is gone'); return []; } });
  const blocks = await s.install('blocks');
  await s.actor.ref.ask('filter.install', { kind: 'logs', filter: { criteria: { addresses: [], topics: [] }, scope: { kind: 'range', from: { kind: 'tag', tag: 'latest' }, to: { kind: 'tag', tag: 'latest' } } } });
  s.tell(heads([1]));
  assert.match(await notFound(s.changes(blocks)), 'it was never installed, or the node restarted since');
  const again = await s.install('blocks');
  s.tell(heads([2]));
  assert.equal(await s.changes(again), [h(2)]);
});

Filters.run();

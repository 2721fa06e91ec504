/**
 * The log index against a real LevelDB: every query answers exactly what a scan of the receipts
 * answers, across address and topic combinations and ranges, after a reorg to a heavier side
 * branch, and after indexing a store written without the index.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Hex } from '../../../src/chain/codec/bytes.ts';
import { fromHex, hex } from '../../../src/chain/codec/bytes.ts';
import { blockLogEntries, matchesLog, type LogCriteria, type LogEntry } from '../../../src/chain/logs/logFilter.ts';
import { blockKey, ensureLogIndex, keyPrefix, TOPIC } from '../../../src/chain/logs/logIndex.ts';
import { queryLogs } from '../../../src/chain/logs/logQuery.ts';
import { NodeError } from '../../../src/errors.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';
import { mine, PING, PONG, Sender, topic } from '../../helpers/logChain.ts';

const Index = suite('log index');
const T1 = topic(0x11);
const T2 = topic(0x22);
const T3 = topic(0x33);
const ONLY_A = topic(0xaa);

let a: TestChain;
let b: TestChain;
let sa: Sender;
let loggers: [Uint8Array, Uint8Array];
const closers: (() => Promise<void>)[] = [];
Index.after(async () => { for (const close of closers.reverse()) await close(); });

/** What the index must answer: every canonical block's receipts, filtered. */
async function scan(chain: TestChain, c: LogCriteria, from: bigint, to: bigint): Promise<LogEntry[]> {
  const out: LogEntry[] = [];
  for (let n = from; n <= to; n++) {
    const block = (await chain.reader.canonicalBlock(n))!;
    const receipts = (await chain.reader.getReceipts(block.hash))!;
    out.push(...blockLogEntries(block, receipts).filter((l) => matchesLog(c, l.address, l.topics)));
  }
  return out;
}

function criteriaTable(): LogCriteria[] {
  const [l1, l2] = loggers.map(hex) as [Hex, Hex];
  return [
    { addresses: [], topics: [] },
    { addresses: [l1], topics: [] },
    { addresses: [l2], topics: [] },
    { addresses: [l1, l2], topics: [] },
    { addresses: [], topics: [[T1]] },
    { addresses: [], topics: [null, [T2]] },
    { addresses: [], topics: [[T1], [T2]] },
    { addresses: [], topics: [[T1, T2], [T1, T2]] },
    { addresses: [], topics: [null, null, [T3]] },
    { addresses: [], topics: [[T2], null, [T3]] },
    { addresses: [l2], topics: [[T1, T3]] },
    { addresses: [l1], topics: [[PING]] },
    { addresses: [l1, l2], topics: [[PONG]] },
    { addresses: [], topics: [[topic(0x99)]] },
    { addresses: [l2], topics: [[PING]] },
  ];
}

async function assertIndexMatchesScan(chain: TestChain, what: string) {
  const head = chain.reader.head().number;
  for (const c of criteriaTable()) {
    for (const [from, to] of [[0n, head], [2n, head - 2n], [4n, 4n], [head, head]] as [bigint, bigint][]) {
      assert.equal(await queryLogs(chain.reader.store, c, from, to), await scan(chain, c, from, to), `${what}: ${JSON.stringify(c)} over ${from}..${to}`);
    }
  }
}

Index('queries answer exactly what a scan of the receipts answers', async () => {
  a = await openTestChain();
  b = await openTestChain();
  closers.push(() => a.close(), () => b.close());
  sa = new Sender(a);
  const d1 = sa.deployTx();
  const d2 = sa.deployTx();
  loggers = [d1.address, d2.address];
  const [l1, l2] = loggers;
  await mine(a, [d1.tx, d2.tx]);
  const blocks = [
    [sa.raw(l1, [T1, T2]), sa.raw(l2, [T2, T1, T3]), sa.ping(l1, 2, 7)],
    [],
    [sa.raw(l1, [T1]), sa.raw(l1, []), sa.raw(l2, [T3, T3, T3, T3], '0x1234')],
    [sa.ping(l2, 3, 1), sa.raw(l1, [T2, T2])],
    [sa.raw(l2, [T1, T2, T3])],
    [sa.raw(l1, [T3]), sa.raw(l2, [T1]), sa.raw(l1, [T2, T3])],
    [sa.ping(l1, 0, 5)],
  ];
  for (const txs of blocks) await mine(a, txs);
  // Both chains share this history; b goes its own way below.
  for (let n = 1n; n <= a.reader.head().number; n++) await b.writer.import((await a.reader.canonicalBlock(n))!);
  await assertIndexMatchesScan(a, 'linear chain');
  const sample = await queryLogs(a.reader.store, { addresses: [], topics: [[T3], [T3]] }, 0n, a.reader.head().number);
  assert.is(sample.length, 1);
  assert.equal(sample[0]!.topics, [T3, T3, T3, T3]);
  assert.is(sample[0]!.data, '0x1234');
  assert.is(sample[0]!.logIndex, 2);
  assert.is(sample[0]!.txIndex, 2);
});

Index('after a reorg to a heavier side branch the index holds the new branch only', async () => {
  const sb = new Sender(b);
  sb.nonce = sa.nonce; // the branches fork after the shared history
  const [l1, l2] = loggers;
  const { block: dropped } = await mine(a, [sa.raw(l1, [ONLY_A, T1]), sa.raw(l2, [T2])]);
  // Read before the reorg, so that what queries keep of it is put to the test too.
  const n = dropped.header.number;
  assert.is((await queryLogs(a.reader.store, { addresses: [], topics: [] }, n, n)).length, 2);
  assert.is((await queryLogs(a.reader.store, { addresses: [], topics: [[ONLY_A]] }, n, n)).length, 1);
  const b1 = (await mine(b, [sb.raw(l2, [T1, T2]), sb.ping(l1, 1, 9)])).block;
  const b2 = (await mine(b, [sb.raw(l1, [T3])])).block;
  await a.writer.import(b1);
  const outcome = await a.writer.import(b2);
  assert.is(outcome.result, 'IMPORTED_BEST');
  assert.is(hex(a.reader.head().hash), hex(b2.hash));
  assert.equal(await queryLogs(a.reader.store, { addresses: [], topics: [[ONLY_A]] }, 0n, a.reader.head().number), []);
  const atDropped = await queryLogs(a.reader.store, { addresses: [], topics: [] }, dropped.header.number, dropped.header.number);
  assert.ok(atDropped.every((l) => l.blockHash === hex(b1.hash)), 'the height of the dropped block holds the new block');
  assert.is(atDropped.length, 3);
  await assertIndexMatchesScan(a, 'after the reorg');
  // No key of the dropped block's own topic is left behind.
  const prefix = Uint8Array.from([0x10, ...Buffer.from(ONLY_A.slice(2), 'hex')]);
  assert.equal(await a.reader.store.logs.keys({ gte: prefix, lt: Uint8Array.from([0x10, 0xab]) }).all(), []);
});

Index('a query starting within keys read before takes them from memory, and reads the blocks mined since', async () => {
  const store = a.reader.store;
  const [l1, l2] = loggers;
  const c: LogCriteria = { addresses: [], topics: [[T1]] };
  const before = await queryLogs(store, c, 0n, a.reader.head().number);
  assert.ok(before.length > 1);
  const sender = new Sender(a);
  sender.nonce = 18n; // a is on b's branch now: the sender's 15 shared transactions, then b's 3
  await mine(a, [sender.raw(l1, [T1]), sender.raw(l2, [T2, T1])]);
  await mine(a, []);
  await mine(a, [sender.raw(l2, [T1, T3])]);
  const head = a.reader.head().number;
  for (const from of [0n, 2n, before.at(-1)!.blockNumber, head]) {
    assert.equal(await queryLogs(store, c, from, head), await scan(a, c, from, head), `from ${from}`);
  }
  // A key deleted behind the index's back (no generation move) is still seen: the span came from memory.
  const key = blockKey(keyPrefix(TOPIC, fromHex(T1)), before[0]!.blockNumber);
  const value = (await store.logs.get(key))!;
  await store.logs.del(key);
  assert.equal(await queryLogs(store, c, 1n, head), await scan(a, c, 1n, head));
  await store.logs.put(key, value);
});

Index('a store written before the index, or in an older format, is indexed on start', async () => {
  const marker = new TextEncoder().encode('logindex');
  await a.reader.store.logs.clear();
  await a.reader.store.meta.del(marker);
  assert.equal(await queryLogs(a.reader.store, { addresses: [], topics: [] }, 0n, a.reader.head().number), []);
  await ensureLogIndex(a.reader);
  await assertIndexMatchesScan(a, 'after indexing');
  // An index in the first format (a key per log): the marker says 1; its keys are cleared and rebuilt.
  const oldKey = Uint8Array.from([0x01, ...new Uint8Array(20), ...new Uint8Array(12)]);
  await a.reader.store.logs.put(oldKey, new Uint8Array(0));
  await a.reader.store.meta.put(marker, Uint8Array.of(1));
  await ensureLogIndex(a.reader);
  assert.is(await a.reader.store.logs.get(oldKey), undefined);
  await assertIndexMatchesScan(a, 'after rebuilding');
  assert.equal([...(await a.reader.store.meta.get(marker))!], [2]);
});

Index('past maxBlocks a query answers up to maxLogs logs, and beyond names a range that fits', async () => {
  const store = a.reader.store;
  const all = await queryLogs(store, { addresses: [], topics: [] }, 0n, a.reader.head().number);
  const limits = { maxBlocks: 3n, maxLogs: all.length };
  assert.is((await queryLogs(store, { addresses: [], topics: [] }, 0n, a.reader.head().number, limits)).length, all.length, 'exactly maxLogs: answered');
  const tight = { maxBlocks: 3n, maxLogs: 5 };
  // Blocks 2, 3, 4 hold 5, 0 and 3 logs: the sixth log is in block 4, so 2..3 fits by logs and 2..4 by blocks.
  const err = await queryLogs(store, { addresses: [], topics: [] }, 2n, 8n, tight).then(() => undefined, (e: unknown) => e);
  assert.instance(err, NodeError);
  assert.is((err as NodeError).kind, 'LIMIT_EXCEEDED');
  assert.match((err as NodeError).message, /more than 5 logs over 7 blocks \(0x2 to 0x8\)/);
  assert.match((err as NodeError).message, /at most 3 blocks with any number of logs, or any range with at most 5 logs/);
  assert.match((err as NodeError).message, /This block range should work: \[0x2, 0x4\]$/);
  assert.is((await queryLogs(store, { addresses: [], topics: [] }, 2n, 4n, tight)).length, 8, 'the suggested range is answered');
  // With a filter the count is of matching logs: a long range with few matches is answered.
  assert.is((await queryLogs(store, { addresses: [], topics: [[T3]] }, 0n, 8n, tight)).length, 2);
});

Index.run();

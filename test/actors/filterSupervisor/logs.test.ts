/**
 * Log filters of the filter supervisor over a real chain (LevelDB, signed transactions, sealed
 * blocks; test/helpers/logChain.ts), told of head changes as the chain actor tells it: matching by
 * address and topics, numeric block bounds, and a reorg, whose dropped block's logs come back with
 * `removed: true`, newest first, before the logs of the blocks that joined.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock } from 'xstate';
import { DEFAULT_FILTER_OPTIONS, spawnFilterSupervisor, type FilterChange, type FilterSupervisorProtocol } from '../../../src/actors/filterSupervisor/index.ts';
import type { Actor } from '../../../src/actors/kernel/index.ts';
import type { Block } from '../../../src/chain/codec/block.ts';
import { hex, type Hex } from '../../../src/chain/codec/bytes.ts';
import { LiveLogSource, type LiveLog, type LiveLogFilter, type RangeEnd } from '../../../src/chain/logs/liveLogs.ts';
import type { HeadChange } from '../../../src/chain/writer.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';
import { mine, Sender, topic } from '../../helpers/logChain.ts';

const Logs = suite('filter supervisor: log filters');
const A = topic(0xa1);
const B = topic(0xb2);
const LATEST: RangeEnd = { kind: 'tag', tag: 'latest' };

let chain: TestChain;
let filters: Actor<FilterSupervisorProtocol>;
let sender: Sender;
let logger: Uint8Array;

Logs.before(async () => {
  chain = await openTestChain();
  filters = spawnFilterSupervisor(DEFAULT_FILTER_OPTIONS, { logs: new LiveLogSource(chain.reader), clock: new SimulatedClock() });
  await filters.ready;
  sender = new Sender(chain);
  const deploy = sender.deployTx();
  logger = deploy.address;
  await mine(chain, [deploy.tx]);
});
Logs.after(async () => { await filters?.stop(); await chain?.close(); });

/** Tells the supervisor of a head change, as the chain actor does. */
const announce = (change: HeadChange | undefined) => { if (change) filters.ref.tell({ type: 'chain.headChanged', added: change.added, removed: change.removed }); };
/** Mines a block of these transactions on the head and announces it. */
async function mined(...txs: Parameters<typeof mine>[1]): Promise<Block> {
  const { block, outcome } = await mine(chain, txs);
  announce(outcome.headChange);
  return block;
}
const install = (criteria: Partial<LiveLogFilter['criteria']>, from: RangeEnd = LATEST, to: RangeEnd = LATEST) =>
  filters.ref.ask('filter.install', { kind: 'logs', filter: { criteria: { addresses: [], topics: [], ...criteria }, scope: { kind: 'range', from, to } } });
const changes = (id: Hex) => filters.ref.ask('filter.changes', { id });
/** A log change as [data, removed, block hash]. */
const brief = (c: FilterChange) => {
  assert.type(c, 'object', 'a log change, not a hash');
  const { log, removed } = c as LiveLog;
  return [log.data, removed, log.blockHash];
};

Logs('a log filter reports the matching logs of new blocks, in chain order, with their positions', async () => {
  const onlyA = await install({ addresses: [hex(logger)], topics: [[A]] });
  const anyLog = await install({});
  const elsewhere = await install({ addresses: [`0x${'22'.repeat(20)}`] });
  const first = await mined(sender.raw(logger, [A], '0x01'), sender.raw(logger, [B], '0x02'));
  const second = await mined(sender.raw(logger, [A, B], '0x03'));
  const got = await changes(onlyA);
  assert.equal(got.map(brief), [['0x01', false, hex(first.hash)], ['0x03', false, hex(second.hash)]]);
  const [log1, log3] = got.map((c) => (c as LiveLog).log);
  assert.equal([log1!.blockNumber, log1!.txIndex, log1!.logIndex, log1!.address, log1!.topics], [first.header.number, 0, 0, hex(logger), [A]]);
  assert.equal([log3!.blockNumber, log3!.txHash, log3!.topics], [second.header.number, hex(second.txs[0]!.hash()), [A, B]]);
  assert.equal((await changes(anyLog)).map(brief).map(([data]) => data), ['0x01', '0x02', '0x03']);
  assert.equal(await changes(elsewhere), []);
  assert.equal(await changes(onlyA), [], 'nothing new since the previous poll');
});

Logs('numeric fromBlock and toBlock bound the blocks a filter reports', async () => {
  const next = chain.reader.head().number + 1n;
  const fromNext2 = await install({}, { kind: 'number', number: next + 1n });
  const upToNext = await install({}, LATEST, { kind: 'number', number: next });
  await mined(sender.raw(logger, [A], '0x11'));
  await mined(sender.raw(logger, [A], '0x12'));
  assert.equal((await changes(fromNext2)).map(brief).map(([data]) => data), ['0x12']);
  assert.equal((await changes(upToNext)).map(brief).map(([data]) => data), ['0x11']);
});

Logs('a reorg reports the dropped block\'s logs removed, newest first, then the logs of the new branch', async () => {
  const forkAt = (await chain.reader.getBlock(chain.reader.head().hash))!;
  const nonceAtFork = sender.nonce;
  const onlyA = await install({ topics: [[A]] });
  const blocks = await filters.ref.ask('filter.install', { kind: 'blocks' });
  const dropped = await mined(sender.raw(logger, [A], '0x21'), sender.raw(logger, [B], '0x22'), sender.raw(logger, [A], '0x23'));
  const given = await changes(onlyA);
  assert.equal(given.map(brief), [['0x21', false, hex(dropped.hash)], ['0x23', false, hex(dropped.hash)]]);
  assert.equal(await changes(blocks), [hex(dropped.hash)]);

  // Two empty blocks on the fork point outweigh the dropped block; a log is then mined on the new branch.
  const side = [await chain.emptyChildOf(forkAt)];
  side.push(await chain.emptyChildOf(side[0]!));
  const outcomes = [];
  for (const block of side) {
    const outcome = await chain.writer.import(block);
    announce(outcome.headChange);
    outcomes.push(outcome);
  }
  assert.is(outcomes[1]!.result, 'IMPORTED_BEST');
  assert.equal(outcomes.flatMap((o) => o.headChange?.removed ?? []).map((b) => hex(b.hash)), [hex(dropped.hash)], 'the reorg dropped one block');
  sender.nonce = nonceAtFork;
  const fresh = await mined(sender.raw(logger, [A], '0x24'));

  const after = await changes(onlyA);
  assert.equal(after.map(brief), [['0x23', true, hex(dropped.hash)], ['0x21', true, hex(dropped.hash)], ['0x24', false, hex(fresh.hash)]]);
  assert.equal(after[1], { ...(given[0] as LiveLog), removed: true }, 'the removed log is the log given before, flagged');
  assert.equal(await changes(blocks), [...side, fresh].map((b) => hex(b.hash)), 'a block filter reports the new branch, not the dropped block again');
});

Logs.run();

/**
 * The pool actor over a real chain (LevelDB, writer, sealed blocks) with simulated time: inclusion,
 * a reorg that returns a mined transaction to pending, expiry by time and by blocks, what an
 * expired transaction does to its sender's later nonces, and a first age limit that arrives after the
 * transaction was sent again.
 */
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SimulatedClock } from 'xstate';
import type { NodeEvent } from '../../../src/actors/events.ts';
import { createEventBus, spawn, type Actor } from '../../../src/actors/kernel/index.ts';
import { txPoolBehavior } from '../../../src/actors/txpool/behavior.ts';
import { DEFAULT_TXPOOL_OPTIONS, type TxPoolOptions, type TxPoolProtocol } from '../../../src/actors/txpool/index.ts';
import type { Block } from '../../../src/chain/codec/block.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import type { ImportOutcome } from '../../../src/chain/writer.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';

const Pool = suite('txpool actor');
const COMMON = createChainCommon(NETWORKS.regtest);
const TO = hexToBytes('0x09a1eda29f664ac8f68106f6567276df0c65d859');
const cleanup: (() => Promise<void>)[] = [];
Pool.after(async () => { for (const close of cleanup.reverse()) await close(); });

interface Harness {
  chain: TestChain;
  pool: Actor<TxPoolProtocol>;
  clock: SimulatedClock;
  events: NodeEvent[];
  /** Imports a block and tells the pool about the head change, as the chain actor does. */
  importBlock(block: Block): Promise<ImportOutcome>;
  /** Builds a block on the head from the pool's executable transactions, seals and imports it. */
  mine(): Promise<Block>;
  state(): Promise<{ pending: string[]; queued: string[] }>;
}

async function harness(opts: Partial<TxPoolOptions> = {}): Promise<Harness> {
  const chain = await openTestChain();
  const bus = createEventBus<NodeEvent>();
  const events: NodeEvent[] = [];
  bus.subscribe({ name: 'recorder', tell: (e: NodeEvent) => { events.push(e); }, ask: () => Promise.reject(new Error('no asks')) }, (e) => e);
  const clock = new SimulatedClock();
  let pool: Actor<TxPoolProtocol> | undefined;
  pool = spawn('txpool', txPoolBehavior({ reader: chain.reader, bus, self: () => pool!.ref, clock }, { ...DEFAULT_TXPOOL_OPTIONS, ...opts }));
  await pool.ready;
  cleanup.push(async () => { await pool!.stop(); await chain.close(); });
  const importBlock = async (block: Block) => {
    const outcome = await chain.writer.import(block);
    if (outcome.headChange) pool!.ref.tell({ type: 'chain.headChanged', ...outcome.headChange });
    return outcome;
  };
  return {
    chain, pool, clock, events, importBlock,
    async mine() {
      const txs = await pool!.ref.ask('pool.executable', { maxGas: 7_000_000n });
      const head = chain.reader.head().header;
      const block = await chain.sealed(await chain.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs, timestamp: head.timestamp + 1n, minimumGasPriceTarget: 0n }));
      assert.is((await importBlock(block)).result, 'IMPORTED_BEST');
      return block;
    },
    async state() {
      const { pending, queued } = await pool!.ref.ask('pool.list', {});
      return { pending: pending.map((p) => p.hash), queued: queued.map((p) => p.hash) };
    },
  };
}

const transfer = (account: number, nonce: bigint, gasPrice = 1n): TypedTransaction =>
  createLegacyTx({ nonce, to: TO, value: 1n, gasLimit: 21_000n, gasPrice }, { common: COMMON }).sign(DEV_ACCOUNTS[account]!.privateKey);
const hashOf = (tx: TypedTransaction) => bytesToHex(tx.hash());

Pool('a mined transaction leaves the pool; a reorg that drops its block returns it to pending', async () => {
  const h = await harness();
  // The competing branch starts from an empty block built on genesis before the transaction exists.
  const sibling = await h.chain.sealed(await h.chain.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [], timestamp: 10n, minimumGasPriceTarget: 0n }));
  const tx = transfer(0, 0n);
  assert.equal(await h.pool.ref.ask('tx.submit', { tx }), { hash: hashOf(tx), pending: true, alone: true });
  const mined = await h.mine();
  assert.is(mined.txs.length, 1);
  assert.equal(await h.state(), { pending: [], queued: [] });
  assert.is(await h.pool.ref.ask('pool.get', { hash: hashOf(tx) as `0x${string}` }), undefined);

  // Equal weight: fork choice may or may not switch to the sibling; its child settles it.
  const first = await h.importBlock(sibling);
  const second = await h.importBlock(await h.chain.emptyChildOf(sibling));
  assert.is(second.result, 'IMPORTED_BEST');
  const removed = [first, second].flatMap((o) => o.headChange?.removed ?? []).map((b) => bytesToHex(b.hash));
  assert.equal(removed, [bytesToHex(mined.hash)]);
  assert.is(bytesToHex(h.chain.reader.head().header.parentHash), bytesToHex(sibling.hash));
  assert.equal(await h.state(), { pending: [hashOf(tx)], queued: [] });
  const announced = h.events.filter((e) => e.type === 'pool.txAdded' && e.pending && hashOf(e.tx) === hashOf(tx));
  assert.is(announced.length, 2, 'announced as pending when it arrived and again when it came back');
  // And it is mined again on the new branch.
  const again = await h.mine();
  assert.equal(again.txs.map(hashOf), [hashOf(tx)]);
  assert.equal(await h.state(), { pending: [], queued: [] });
});

Pool('a nonce gap waits in queued; filling it promotes the successors in order', async () => {
  const h = await harness();
  const [n0, n1, n2] = [transfer(1, 0n), transfer(1, 1n), transfer(1, 2n)];
  assert.is((await h.pool.ref.ask('tx.submit', { tx: n2 })).pending, false);
  assert.is((await h.pool.ref.ask('tx.submit', { tx: n1 })).pending, false);
  assert.equal(await h.state(), { pending: [], queued: [hashOf(n2), hashOf(n1)] });
  assert.equal(await h.pool.ref.ask('pool.executable', { maxGas: 7_000_000n }), []);
  assert.is((await h.pool.ref.ask('tx.submit', { tx: n0 })).pending, true);
  assert.equal((await h.state()).queued, []);
  assert.equal((await h.pool.ref.ask('pool.executable', { maxGas: 7_000_000n })).map(hashOf), [n0, n1, n2].map(hashOf));
  assert.is(await h.pool.ref.ask('pool.nextNonce', { sender: bytesToHex(DEV_ACCOUNTS[1]!.address) as `0x${string}` }), 3n);
  const promoted = h.events.filter((e) => e.type === 'pool.txAdded' && e.pending).map((e) => hashOf((e as { tx: TypedTransaction }).tx));
  assert.equal(promoted.sort(), [n0, n1, n2].map(hashOf).sort());
  // Automine waits one turn more for a transaction that joined others (src/actors/miner/behavior.ts).
  const alone = h.events.flatMap((e) => (e.type === 'pool.txAdded' ? [e.alone] : []));
  assert.equal(alone, [true, false, false, false, false], 'only the first came into an empty pool');
});

Pool('a transaction expires after 650 s; its sender\'s later nonce falls back to queued', async () => {
  const h = await harness();
  const n0 = transfer(2, 0n);
  await h.pool.ref.ask('tx.submit', { tx: n0 });
  h.clock.increment(100_000);
  const n1 = transfer(2, 1n);
  assert.is((await h.pool.ref.ask('tx.submit', { tx: n1 })).pending, true);
  h.clock.increment(549_999);
  assert.equal(await h.state(), { pending: [hashOf(n0), hashOf(n1)], queued: [] });
  h.clock.increment(1);
  assert.equal(await h.state(), { pending: [], queued: [hashOf(n1)] });
  assert.ok(h.events.some((e) => e.type === 'pool.txRemoved' && e.hash === hashOf(n0)));
  h.clock.increment(100_000);
  assert.equal(await h.state(), { pending: [], queued: [] });
});

Pool('a transaction sent again between its age limit firing and the pool hearing of it keeps its new age', async () => {
  const h = await harness();
  const tx = transfer(4, 0n);
  await h.pool.ref.ask('tx.submit', { tx });
  h.clock.increment(649_000);
  // In the pool's mailbox, in this order: a block build refuses it, it is sent again, and its first age limit fires.
  h.pool.ref.tell({ type: 'tx.dropped', hashes: [hashOf(tx)], reason: 'refused by a block build' });
  const again = h.pool.ref.ask('tx.submit', { tx });
  h.clock.increment(1_000);
  assert.is((await again).pending, true);
  assert.equal(await h.state(), { pending: [hashOf(tx)], queued: [] }, 'the first limit does not end the new entry');
  h.clock.increment(649_999);
  assert.equal(await h.state(), { pending: [hashOf(tx)], queued: [] });
  h.clock.increment(1);
  assert.equal(await h.state(), { pending: [], queued: [] }, 'its own limit does');
});

Pool('a transaction waiting more than the block limit is dropped', async () => {
  const h = await harness({ maxAgeBlocks: 2n });
  const queued = transfer(3, 1n);
  await h.pool.ref.ask('tx.submit', { tx: queued });
  await h.mine();
  await h.mine();
  assert.equal((await h.state()).queued, [hashOf(queued)]);
  await h.mine();
  assert.equal(await h.state(), { pending: [], queued: [] });
});

Pool('a rewound head discards the pool instead of returning the rewound transactions', async () => {
  const h = await harness();
  const a = transfer(4, 0n);
  await h.pool.ref.ask('tx.submit', { tx: a });
  await h.mine();
  const waiting = transfer(4, 2n);
  await h.pool.ref.ask('tx.submit', { tx: waiting });
  const change = await h.chain.writer.rewind(0n);
  assert.is(change.rewound, true);
  assert.is(change.removed.length, 1);
  h.pool.ref.tell({ type: 'chain.headChanged', ...change });
  assert.equal(await h.state(), { pending: [], queued: [] });
  assert.is(h.chain.reader.head().number, 0n);
  assert.is(await h.chain.reader.getBlock(change.removed[0]!.hash), undefined, 'rewound blocks are deleted');
  assert.is(await h.chain.reader.txLocation(a.hash()), undefined);
});

Pool.run();

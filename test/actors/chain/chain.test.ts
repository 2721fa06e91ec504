/**
 * The chain actor through its protocol, over a real chain in a temp LevelDB: what the miner, the
 * block sync and the RPC (evm_revert, evm_reset) ask of it, and what it publishes on the bus for the
 * pool, the filters, the subscriptions and the monitor. Blocks for it are sealed with a mirror chain
 * (test/helpers/chain.ts) that holds the same blocks, so side branches can be built anywhere.
 * The checks of a block themselves are test/chain/writer's subject.
 */
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, compareBytes } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { indexGeneration } from '../../../src/chain/logs/logIndex.ts';
import { spawnChain, type ChainProtocol } from '../../../src/actors/chain/index.ts';
import type { NodeEvent } from '../../../src/actors/events.ts';
import { ActorStoppedError, createEventBus, type Actor } from '../../../src/actors/kernel/index.ts';
import { makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import { ChainReader } from '../../../src/chain/reader.ts';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';
import { tempDir } from '../../helpers/node.ts';

const Chain = suite('chain actor');
const common = createChainCommon(NETWORKS.regtest);
const COINBASE = NETWORKS.regtest.defaultCoinbase;
const hex = (b: { hash: Uint8Array }) => bytesToHex(b.hash);
const hexes = (blocks: readonly { hash: Uint8Array }[]) => blocks.map(hex);
const cleanup: (() => Promise<void>)[] = [];
Chain.after(async () => { for (const close of cleanup.reverse()) await close(); });

/** An event as a subscriber received it, with the head its reader showed at that moment. */
interface Heard { readonly event: NodeEvent; readonly headThen: string }

interface Harness {
  readonly dir: string;
  readonly reader: ChainReader;
  readonly chain: Actor<ChainProtocol>;
  /** Holds every block the actor was given, to seal children of any of them. */
  readonly mirror: TestChain;
  readonly heard: Heard[];
  /** Blocks per observed import (observeImport's second argument), in order. */
  readonly observed: number[];
  readonly escalated: unknown[];
  /** A template built by the actor on its head, sealed. */
  mined(txs?: TypedTransaction[]): Promise<Block>;
  /** Asks the actor to import `block`, and gives it to the mirror too. */
  import(block: Block, origin?: 'local' | 'peer'): Promise<ChainProtocol['ask']['block.import']['res']>;
  /** The events heard since the last call. */
  take(): Heard[];
}

async function start(dir: string) {
  const reader = new ChainReader(new ChainStore(dir), common, NETWORKS.regtest);
  const bus = createEventBus<NodeEvent>();
  const heard: Heard[] = [];
  bus.subscribe({ name: 'recorder', tell: (event: NodeEvent) => { heard.push({ event, headThen: hex(reader.head()) }); }, ask: () => Promise.reject(new Error('no asks')) }, (e) => e);
  const observed: number[] = [];
  const escalated: unknown[] = [];
  const chain = spawnChain({ reader, bus, observeImport: (_seconds, blocks) => observed.push(blocks) }, (_name, err) => escalated.push(err));
  await chain.ready;
  return { reader, chain, heard, observed, escalated };
}

async function harness(): Promise<Harness> {
  const dir = tempDir('mmnode-chain-actor-');
  const { reader, chain, heard, observed, escalated } = await start(dir);
  const mirror = await openTestChain();
  cleanup.push(async () => { await chain.stop(); await mirror.close(); rmSync(dir, { recursive: true, force: true }); });
  let nonce = 0n;
  const h: Harness = {
    dir, reader, chain, mirror, heard, observed, escalated,
    async mined(txs = [transfer(nonce++)]) {
      const t = await chain.ref.ask('block.build', { coinbase: COINBASE, txs, timestamp: 0n, minimumGasPriceTarget: 0n });
      assert.is(t.txs.length, txs.length, `left out: ${t.rejected.map((r) => r.reason).join('; ')}`);
      return mirror.sealed(t);
    },
    async import(block, origin = 'peer') {
      const outcome = await chain.ref.ask('block.import', { block, origin });
      await mirror.writer.import(block);
      return outcome;
    },
    take: () => heard.splice(0),
  };
  return h;
}

const transfer = (nonce: bigint) => createLegacyTx({ nonce, to: DEV_ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n }, { common })
  .sign(DEV_ACCOUNTS[0]!.privateKey);

/** The events' types, with for an import its block, best flag and origin, and for a head change its added and removed blocks. */
const summary = (heard: Heard[]) => heard.map(({ event: e }) => {
  if (e.type === 'chain.blockImported') return { type: e.type, block: hex(e.block), best: e.best, origin: e.origin };
  if (e.type === 'chain.headChanged') return { type: e.type, head: hex(e.head), added: hexes(e.added), removed: hexes(e.removed), rewound: e.rewound };
  return { type: e.type };
});

Chain('a built template, sealed and imported, moves the head; chain.blockImported (best) then chain.headChanged follow, the head already moved', async () => {
  const h = await harness();
  const genesis = hex(h.reader.head());
  const tx = transfer(0n);
  const block = await h.mined([tx]);
  assert.is(block.header.number, 1n);
  assert.is(bytesToHex(block.header.parentHash), genesis);
  assert.is(hex(h.reader.head()), genesis, 'building does not move the head');
  assert.equal(h.take(), [], 'nor publish anything');

  const outcome = await h.import(block, 'local');
  assert.is(outcome.result, 'IMPORTED_BEST');
  assert.is(hex(h.reader.head()), hex(block));
  assert.ok(await h.reader.txLocation(tx.hash()), 'its transaction is found');
  const heard = h.take();
  assert.equal(summary(heard), [
    { type: 'chain.blockImported', block: hex(block), best: true, origin: 'local' },
    { type: 'chain.headChanged', head: hex(block), added: [hex(block)], removed: [], rewound: undefined },
  ]);
  assert.equal(heard.map((x) => x.headThen), [hex(block), hex(block)], 'subscribers read the new head when they hear of it');
  assert.equal(h.observed, [1]);

  // The same block again (a peer gossips it back): known, nothing published.
  assert.is((await h.import(block)).result, 'EXIST');
  assert.equal(h.take(), []);
});

Chain('an invalid block is refused with its reason; the head, the stored data and the bus stay as they were', async () => {
  const h = await harness();
  const first = await h.mined();
  await h.import(first);
  h.take();
  const head = hex(h.reader.head());
  const tx = transfer(1n);
  const t = await h.chain.ref.ask('block.build', { coinbase: COINBASE, txs: [tx], timestamp: 0n, minimumGasPriceTarget: 0n });

  const forged = makeBlock(await h.mirror.seal({ ...t.header, stateRoot: new Uint8Array(32).fill(7) }), t.txs);
  const unsealed = makeBlock(t.header, t.txs);
  const orphan = makeBlock(await h.mirror.seal({ ...t.header, parentHash: new Uint8Array(32).fill(1) }), t.txs);
  const refused = [];
  for (const block of [forged, unsealed, orphan]) refused.push(await h.chain.ref.ask('block.import', { block, origin: 'peer' }));
  assert.equal(refused.map((o) => o.result), ['INVALID_BLOCK', 'INVALID_BLOCK', 'NO_PARENT']);
  assert.is(refused[0]!.reason, 'state root mismatch');
  assert.match(refused[1]!.reason!, /merged-mining proof/);

  assert.is(hex(h.reader.head()), head);
  for (const block of [forged, unsealed, orphan]) assert.is(await h.reader.store.headers.has(block.hash), false, 'not stored');
  assert.is(await h.reader.canonicalHash(2n), undefined);
  assert.is(await h.reader.txLocation(tx.hash()), undefined);
  assert.equal(h.take(), [], 'nothing published');
  assert.equal(h.escalated, []);

  // The actor goes on serving: the honest block of the same template imports.
  assert.is((await h.import(await h.mirror.sealed(t))).result, 'IMPORTED_BEST');
  assert.is(h.reader.head().number, 2n);
});

Chain('a lighter side block is announced as not best and moves nothing; the block that makes its branch heavier reorgs, listing the removed blocks', async () => {
  const h = await harness();
  const genesis = (await h.reader.canonicalBlock(0n))!;
  const a1 = await h.mined();
  await h.import(a1, 'local');
  const a2 = await h.mined();
  await h.import(a2, 'local');
  const mainTx = a1.txs[0]!;
  h.take();

  // Regtest blocks weigh 1 each: s1 is lighter than a1-a2; s2 ties and is picked so that it loses the tie (higher hash).
  const s1 = await h.mirror.emptyChildOf(genesis, 5n);
  assert.is((await h.import(s1)).result, 'IMPORTED_NOT_BEST');
  let s2 = await h.mirror.emptyChildOf(s1);
  for (let step = 2n; compareBytes(s2.hash, a2.hash) < 0; step++) s2 = await h.mirror.emptyChildOf(s1, step);
  const tie = await h.import(s2);
  assert.is(tie.result, 'IMPORTED_NOT_BEST');
  assert.is(tie.headChange, undefined);
  assert.is(hex(h.reader.head()), hex(a2));
  assert.equal(summary(h.take()), [
    { type: 'chain.blockImported', block: hex(s1), best: false, origin: 'peer' },
    { type: 'chain.blockImported', block: hex(s2), best: false, origin: 'peer' },
  ]);

  const s3 = await h.mirror.emptyChildOf(s2);
  const outcome = await h.import(s3);
  assert.is(outcome.result, 'IMPORTED_BEST');
  const heard = h.take();
  assert.equal(summary(heard), [
    { type: 'chain.blockImported', block: hex(s3), best: true, origin: 'peer' },
    { type: 'chain.headChanged', head: hex(s3), added: hexes([s1, s2, s3]), removed: hexes([a2, a1]), rewound: undefined },
  ]);
  assert.is(heard[1]!.headThen, hex(s3));
  assert.equal(await Promise.all([1n, 2n, 3n].map(async (n) => bytesToHex((await h.reader.canonicalHash(n))!))), hexes([s1, s2, s3]));
  assert.is(await h.reader.txLocation(mainTx.hash()), undefined, 'the removed blocks\' transactions are no longer found');
  assert.ok(await h.reader.getBlock(a1.hash), 'the old branch is kept as a side branch');
});

Chain('blocks.import (a sync batch): one outcome per block up to the first invalid one, each announced from a peer, one chain.headChanged for the run', async () => {
  const h = await harness();
  const genesis = (await h.reader.canonicalBlock(0n))!;
  // The peer's chain, built on the mirror alone.
  const b1 = await h.mirror.emptyChildOf(genesis);
  await h.mirror.writer.import(b1);
  const b2 = await h.mirror.emptyChildOf(b1);
  await h.mirror.writer.import(b2);
  const b3 = await h.mirror.emptyChildOf(b2);
  const bad = makeBlock(await h.mirror.seal({ ...b3.header, gasUsed: 1n }), []);
  const after = await h.mirror.emptyChildOf(b3);

  const outcomes = await h.chain.ref.ask('blocks.import', { blocks: [b1, b2, bad, after] });
  assert.equal(outcomes.map((o) => o.result), ['IMPORTED_BEST', 'IMPORTED_BEST', 'INVALID_BLOCK']);
  assert.match(outcomes[2]!.reason!, /gas used/);
  assert.equal(summary(h.take()), [
    { type: 'chain.blockImported', block: hex(b1), best: true, origin: 'peer' },
    { type: 'chain.blockImported', block: hex(b2), best: true, origin: 'peer' },
    { type: 'chain.headChanged', head: hex(b2), added: hexes([b1, b2]), removed: [], rewound: undefined },
  ]);
  assert.is(hex(h.reader.head()), hex(b2));
  assert.is(await h.reader.store.headers.has(bad.hash), false);
  assert.is(h.observed.length, 1, 'the run is observed as one import');

  // A run of blocks already known changes nothing and publishes nothing.
  assert.equal((await h.chain.ref.ask('blocks.import', { blocks: [b1, b2] })).map((o) => o.result), ['EXIST', 'EXIST']);
  assert.equal(h.take(), []);
});

Chain('a mined run (hardhat_mine): blocks built on the pending tip stay unwritten and unpublished until blocks.write, then go as one head change; another import writes the run first', async () => {
  const h = await harness();
  const genesis = hex(h.reader.head());
  const empty = async () => {
    const t = await h.chain.ref.ask('block.build', { coinbase: COINBASE, txs: [], timestamp: 0n, minimumGasPriceTarget: 0n });
    return h.mirror.sealed(t);
  };
  const b1 = await empty();
  assert.is((await h.chain.ref.ask('block.importPending', { block: b1 })).result, 'IMPORTED_BEST');
  const b2 = await empty();
  assert.is(bytesToHex(b2.header.parentHash), hex(b1), 'the next block is built on the pending one');
  assert.is((await h.chain.ref.ask('block.importPending', { block: b2 })).result, 'IMPORTED_BEST');
  assert.is(hex(h.reader.head()), genesis, 'readers see the head before the run');
  assert.is(await h.reader.store.headers.has(b1.hash), false, 'nothing written yet');
  assert.equal(h.take(), [], 'nor published');

  assert.is(await h.chain.ref.ask('blocks.write', {}), null);
  assert.is(hex(h.reader.head()), hex(b2));
  assert.ok(await h.reader.store.headers.has(b1.hash));
  assert.equal(summary(h.take()), [
    { type: 'chain.blockImported', block: hex(b1), best: true, origin: 'local' },
    { type: 'chain.blockImported', block: hex(b2), best: true, origin: 'local' },
    { type: 'chain.headChanged', head: hex(b2), added: hexes([b1, b2]), removed: [], rewound: undefined },
  ]);
  assert.equal(h.observed, [2], 'the run is observed as one import');

  // A block imported while a run is pending (a peer's, or another miner ask) goes after the run, which is written and published first.
  const b3 = await empty();
  await h.chain.ref.ask('block.importPending', { block: b3 });
  const b4 = await empty();
  assert.is((await h.chain.ref.ask('block.import', { block: b4, origin: 'local' })).result, 'IMPORTED_BEST');
  assert.equal(summary(h.take()), [
    { type: 'chain.blockImported', block: hex(b3), best: true, origin: 'local' },
    { type: 'chain.headChanged', head: hex(b3), added: [hex(b3)], removed: [], rewound: undefined },
    { type: 'chain.blockImported', block: hex(b4), best: true, origin: 'local' },
    { type: 'chain.headChanged', head: hex(b4), added: [hex(b4)], removed: [], rewound: undefined },
  ]);
  assert.is(await h.chain.ref.ask('blocks.write', {}), null, 'nothing left to write');
  assert.equal(h.take(), []);
});

Chain('head.rewind (evm_revert, evm_reset): the blocks above are deleted and the change is published as rewound; a rewind not below the head is refused', async () => {
  const h = await harness();
  const blocks: Block[] = [];
  for (let i = 0; i < 3; i++) {
    blocks.push(await h.mined());
    await h.import(blocks[i]!, 'local');
  }
  h.take();
  const [b1, b2, b3] = blocks as [Block, Block, Block];

  const generation = await indexGeneration(h.reader.store);
  const change = await h.chain.ref.ask('head.rewind', { number: 1n });
  assert.is(await indexGeneration(h.reader.store), generation + 1n, 'the log index moved to a new generation');
  assert.equal({ head: hex(change.head), added: hexes(change.added), removed: hexes(change.removed), rewound: change.rewound }, {
    head: hex(b1), added: [], removed: hexes([b3, b2]), rewound: true,
  });
  const heard = h.take();
  assert.equal(summary(heard), [{ type: 'chain.headChanged', head: hex(b1), added: [], removed: hexes([b3, b2]), rewound: true }]);
  assert.is(heard[0]!.headThen, hex(b1));
  assert.is(hex(h.reader.head()), hex(b1));
  assert.is(h.reader.head().totalDifficulty, await h.reader.totalDifficulty(b1.hash), 'the head\'s total difficulty is b1\'s stored one');
  for (const gone of [b2, b3]) {
    assert.is(await h.reader.getBlock(gone.hash), undefined, 'a rewound block is deleted');
    assert.is(await h.reader.txLocation(gone.txs[0]!.hash()), undefined);
  }
  assert.is(await h.reader.canonicalHash(2n), undefined);

  for (const number of [1n, 5n]) {
    const err = await h.chain.ref.ask('head.rewind', { number }).catch((e: Error) => e);
    assert.match(String(err), new RegExp(`cannot rewind the head from 1 to ${number}`));
  }
  assert.equal(h.take(), []);
  assert.equal(h.escalated, []);
  // The actor serves on: the next block is #2 again, on b1.
  const next = await h.mined(b2.txs.slice());
  assert.is((await h.chain.ref.ask('block.import', { block: next, origin: 'local' })).result, 'IMPORTED_BEST');
  assert.is(h.reader.head().number, 2n);
  await h.chain.ref.ask('head.rewind', { number: 1n });
  assert.is(await indexGeneration(h.reader.store), generation + 2n, 'and to another at each rewind');
});

Chain('stopping closes the store: asks are refused, and a chain actor started on the same directory has the same head', async () => {
  const h = await harness();
  const block = await h.mined();
  await h.import(block, 'local');
  await h.chain.stop();
  assert.is(h.reader.store.db.status, 'closed');
  assert.instance(await h.chain.ref.ask('head.rewind', { number: 0n }).catch((e) => e), ActorStoppedError);

  const again = await start(h.dir);
  try {
    assert.is(hex(again.reader.head()), hex(block));
    assert.is(hex((await again.reader.canonicalBlock(1n))!), hex(block));
  } finally {
    await again.chain.stop();
  }
});

Chain.run();

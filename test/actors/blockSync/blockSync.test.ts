/**
 * Block sync below the network: a real chain actor on a temp LevelDB imports what the sync downloads
 * from fake peers, which serve blocks of a chain built in-process (as requestBlocksByRange returns
 * them: each block's decoded RLP). The real-process tests (test/p2p/) cover the network end to end.
 */
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnBlockSync, type BlockSyncProtocol } from '../../../src/actors/blockSync/index.ts';
import { FIRST_BATCH, IN_FLIGHT, SYNC_BATCH } from '../../../src/actors/blockSync/download.ts';
import { spawnChain } from '../../../src/actors/chain/index.ts';
import type { NodeEvent } from '../../../src/actors/events.ts';
import { createEventBus, type Actor } from '../../../src/actors/kernel/index.ts';
import { encodeBlock, makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import { ChainReader } from '../../../src/chain/reader.ts';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { configureLogging } from '../../../src/log.ts';
import type { PeerEvent, PeerIdStr } from '../../../src/p2p/index.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';
import { tempDir } from '../../helpers/node.ts';
import { waitUntil } from '../../helpers/rpc.ts';

configureLogging('error'); // the sync's progress and the forgers' blocks are this test's subject, not its output
const BlockSync = suite('block sync');
const common = createChainCommon(NETWORKS.regtest);
/**
 * Three batches more than the download asks for at once (so both peers whose status arrives after it
 * started are asked too), and past RECOVER_OFF_THREAD_FROM (so senders are recovered on the worker thread).
 */
const HEIGHT = (IN_FLIGHT + 2) * SYNC_BATCH + 10;
let source: TestChain;
const blocks: Block[] = []; // blocks[i] is block i + 1

BlockSync.before(async () => {
  source = await openTestChain();
  const key = DEV_ACCOUNTS[0]!.privateKey;
  for (let nonce = 0n; blocks.length < HEIGHT; nonce++) {
    const tx = createLegacyTx({ nonce, to: DEV_ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n }, { common }).sign(key);
    const t = await source.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [tx], timestamp: 0n, minimumGasPriceTarget: 0n });
    const block = await source.sealed(t);
    assert.is((await source.writer.import(block)).result, 'IMPORTED_BEST');
    blocks.push(block);
  }
});
BlockSync.after(() => source.close());

/** What a fake peer answers a range request with: its blocks, or a failure of its own making. */
type FakePeer = readonly Block[] | ((start: bigint) => unknown[]);

interface Joiner {
  readonly reader: ChainReader;
  readonly sync: Actor<BlockSyncProtocol>;
  /** Peers asked for each batch start, the blocks asked for and the joiner's head then, in order. */
  readonly asked: [PeerIdStr, bigint, number, bigint][];
  readonly reports: [PeerIdStr, PeerEvent][];
  /** The head after each head change the chain published, in order. */
  readonly heads: bigint[];
  stop(): Promise<void>;
}

async function joiner(peers: Record<PeerIdStr, FakePeer>): Promise<Joiner> {
  const dir = tempDir('mmnode-sync-');
  const reader = new ChainReader(new ChainStore(dir), common, NETWORKS.regtest);
  const bus = createEventBus<NodeEvent>();
  const heads: bigint[] = [];
  // A fake reference: the bus delivers to it as to an actor.
  bus.subscribe({ tell: (head: bigint) => heads.push(head) } as never, (e) => (e.type === 'chain.headChanged' ? e.head.number : undefined) as never);
  const chain = spawnChain({ reader, bus }, (_name, err) => { throw err; });
  await chain.ready;
  const asked: [PeerIdStr, bigint, number, bigint][] = [];
  const reports: [PeerIdStr, PeerEvent][] = [];
  const sync = spawnBlockSync({
    reader, chain: chain.ref, report: (peer, event) => reports.push([peer, event]),
    async fetchBlocks(peer, start, count) {
      asked.push([peer, start, count, reader.head().number]);
      const served = peers[peer]!;
      if (typeof served === 'function') return served(start);
      return served.slice(Number(start) - 1, Number(start) - 1 + count).map((b) => RLP.decode(encodeBlock(b)));
    },
  });
  await sync.ready;
  return {
    reader, sync, asked, reports, heads,
    async stop() {
      await sync.stop();
      await chain.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const statusOf = (chain: readonly Block[], td = source.reader.head().totalDifficulty) => ({
  chainId: NETWORKS.regtest.chainId, genesisHash: blocks[0]!.header.parentHash,
  headHash: chain[chain.length - 1]!.hash, headNumber: BigInt(chain.length), totalDifficulty: td,
});
const headNumber = (j: Joiner) => Number(j.reader.head().number);

BlockSync('a heavier peer\'s chain is downloaded in batches spread over the peers that have it (also those whose status comes later), and imported whole', async () => {
  const j = await joiner({ a: blocks, b: blocks, c: blocks });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'b', status: statusOf(blocks) });
    j.sync.ref.tell({ type: 'peer.status', peer: 'c', status: statusOf(blocks) });
    j.sync.ref.tell({ type: 'peer.status', peer: 'a', status: statusOf(blocks) });
    const syncing = await waitUntil(() => j.sync.ref.ask('sync.status', {}), { what: 'eth_syncing while behind' });
    assert.is(syncing.highestBlock, BigInt(HEIGHT));
    await waitUntil(() => headNumber(j) === HEIGHT, { what: `the joiner at #${HEIGHT}`, timeoutMs: 60_000 });
    for (const n of [1, SYNC_BATCH, SYNC_BATCH + 1, HEIGHT]) assert.is(bytesToHex((await j.reader.canonicalHash(BigInt(n)))!), bytesToHex(blocks[n - 1]!.hash));
    assert.equal(new Set(j.asked.map(([peer]) => peer)), new Set(['a', 'b', 'c']), 'batches asked of every peer');
    assert.equal(j.reports, []);
    await waitUntil(async () => (await j.sync.ref.ask('sync.status', {})) === false, { what: 'eth_syncing false once caught up' });
  } finally {
    await j.stop();
  }
});

BlockSync('the first request is a short batch and the first run that batch alone: the head first moves to its end', async () => {
  const j = await joiner({ a: blocks });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'a', status: statusOf(blocks) });
    await waitUntil(() => headNumber(j) === HEIGHT, { what: `the joiner at #${HEIGHT}`, timeoutMs: 60_000 });
    assert.ok(FIRST_BATCH < SYNC_BATCH);
    assert.equal(j.asked.slice(0, 2).map(([, start, count]) => [start, count]), [[1n, FIRST_BATCH], [BigInt(FIRST_BATCH + 1), SYNC_BATCH]]);
    assert.is(j.heads[0], BigInt(FIRST_BATCH));
    assert.is(j.heads[j.heads.length - 1], BigInt(HEIGHT));
    for (let n = 1; n <= HEIGHT; n += SYNC_BATCH) assert.is(bytesToHex((await j.reader.canonicalHash(BigInt(n)))!), bytesToHex(blocks[n - 1]!.hash));
  } finally {
    await j.stop();
  }
});

BlockSync('the batches after a run are asked for when it goes to the chain, not once it is imported', async () => {
  const j = await joiner({ a: blocks });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'a', status: statusOf(blocks) });
    await waitUntil(() => headNumber(j) === HEIGHT, { what: `the joiner at #${HEIGHT}`, timeoutMs: 60_000 });
    // The first request and the IN_FLIGHT - 1 batches after it go out at once; the next one with
    // the first run (blocks 1 to FIRST_BATCH), while the head is still at genesis.
    const next = BigInt(FIRST_BATCH + (IN_FLIGHT - 1) * SYNC_BATCH + 1);
    assert.equal(j.asked.find(([, start]) => start === next)?.[3], 0n, `batch #${next} asked before the first run was imported`);
    assert.equal(new Set(j.asked.map(([, start]) => start)).size, j.asked.length, 'no batch asked twice');
    assert.equal(j.reports, []);
  } finally {
    await j.stop();
  }
});

BlockSync('a peer that answers garbage is reported and its batch is asked of the target again', async () => {
  const j = await joiner({ target: blocks, liar: () => [[1, 2], 'x'] });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'liar', status: statusOf(blocks) });
    j.sync.ref.tell({ type: 'peer.status', peer: 'target', status: statusOf(blocks, source.reader.head().totalDifficulty + 1n) });
    await waitUntil(() => headNumber(j) === HEIGHT, { what: `the joiner at #${HEIGHT}`, timeoutMs: 60_000 });
    assert.ok(j.reports.length > 0 && j.reports.every(([peer, event]) => peer === 'liar' && event === 'invalidMessages'), 'only the liar reported');
    const liarBatch = j.asked.find(([peer]) => peer === 'liar')![1];
    assert.ok(j.asked.some(([peer, start]) => peer === 'target' && start === liarBatch), 'the liar\'s batch asked of the target');
  } finally {
    await j.stop();
  }
});

BlockSync('a peer that answers more blocks than asked for is reported and the blocks are asked of another', async () => {
  const more = (start: bigint) => blocks.slice(Number(start) - 1, Number(start) + SYNC_BATCH).map((b) => RLP.decode(encodeBlock(b)));
  const j = await joiner({ target: blocks, greedy: more });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'greedy', status: statusOf(blocks) });
    j.sync.ref.tell({ type: 'peer.status', peer: 'target', status: statusOf(blocks, source.reader.head().totalDifficulty + 1n) });
    await waitUntil(() => headNumber(j) === HEIGHT, { what: `the joiner at #${HEIGHT}`, timeoutMs: 60_000 });
    assert.ok(j.reports.length > 0 && j.reports.every(([peer, event]) => peer === 'greedy' && event === 'unexpectedMessages'), 'only the greedy peer reported');
  } finally {
    await j.stop();
  }
});

BlockSync('a block from the target that does not verify stops the sync at its parent and reports the target', async () => {
  // Block 200 claims another state root (and is sealed for it): its proof holds, its execution does not.
  const bad = blocks[199]!;
  const forged = makeBlock(await source.seal({ ...bad.header, stateRoot: new Uint8Array(32).fill(7) }), bad.txs);
  const served = [...blocks.slice(0, 199), forged];
  const j = await joiner({ forger: served });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'forger', status: statusOf(served) });
    await waitUntil(() => j.reports.length > 0, { what: 'the forger reported', timeoutMs: 60_000 });
    assert.equal(j.reports, [['forger', 'invalidBlocks']]);
    assert.is(headNumber(j), 199);
  } finally {
    await j.stop();
  }
});

BlockSync('a source other than the target that serves an invalid block is reported and dropped; the rest comes from the target', async () => {
  // The forger joins after the first IN_FLIGHT requests went out to the target: it is asked for the
  // second batch after them, which holds its forged block (imported alone, or in one run with the
  // batches around it: either way the forger is the one reported).
  const at = (IN_FLIGHT + 1) * SYNC_BATCH + 5;
  const bad = blocks[at - 1]!;
  const forged = makeBlock(await source.seal({ ...bad.header, stateRoot: new Uint8Array(32).fill(7) }), bad.txs);
  const j = await joiner({ target: blocks, forger: [...blocks.slice(0, at - 1), forged, ...blocks.slice(at)] });
  try {
    j.sync.ref.tell({ type: 'peer.status', peer: 'target', status: statusOf(blocks) });
    j.sync.ref.tell({ type: 'peer.status', peer: 'forger', status: statusOf(blocks) });
    await waitUntil(() => headNumber(j) === HEIGHT, { what: `the joiner at #${HEIGHT}`, timeoutMs: 60_000 });
    assert.equal(j.reports, [['forger', 'invalidBlocks']]);
    assert.is(bytesToHex((await j.reader.canonicalHash(BigInt(at)))!), bytesToHex(bad.hash));
  } finally {
    await j.stop();
  }
});

BlockSync('a gossiped block whose parent is unknown starts a sync up to it from its sender', async () => {
  const short = blocks.slice(0, SYNC_BATCH + 10);
  const j = await joiner({ gossiper: short });
  try {
    j.sync.ref.tell({ type: 'block.orphan', peer: 'gossiper', number: BigInt(short.length) });
    await waitUntil(() => headNumber(j) === short.length, { what: `the joiner at #${short.length}`, timeoutMs: 60_000 });
    assert.ok(j.asked.every(([peer]) => peer === 'gossiper'));
  } finally {
    await j.stop();
  }
});

BlockSync.run();

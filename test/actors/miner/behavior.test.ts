/**
 * The miner actor alone, with fake chain, pool and reader references: what it asks the pool and the
 * chain, when it mines (automine on a pending transaction, not on a queued one), that what it hands
 * the chain carries a merged-mining proof of the template it built, which siblings it offers as uncles,
 * and how it refuses a solution for work it never handed out.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import type { TypedTransaction } from '@ethereumjs/tx';
import { makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import type { BlockHeader } from '../../../src/chain/codec/header.ts';
import type { ChainView, HeadInfo } from '../../../src/chain/reader.ts';
import type { BuildRequest, ImportOutcome, Template } from '../../../src/chain/writer.ts';
import type { ChainProtocol } from '../../../src/actors/chain/index.ts';
import type { ActorRef, Protocol } from '../../../src/actors/kernel/index.ts';
import { spawnMiner, type MinerProtocol, type MiningMode } from '../../../src/actors/miner/index.ts';
import type { TxPoolProtocol } from '../../../src/actors/txpool/index.ts';
import {
  parentBlockBytes, parentBlockTemplate, solutionFromParentBlock, targetFromDifficulty, verifyMergedMiningProof,
} from '../../../src/mergedmining/index.ts';

const Miner = suite('miner actor');

const header = (number: bigint, parentHash: Uint8Array = new Uint8Array(32)): BlockHeader => ({
  parentHash, unclesHash: new Uint8Array(32), coinbase: new Uint8Array(20), stateRoot: new Uint8Array(32),
  transactionsRoot: new Uint8Array(32), receiptsRoot: new Uint8Array(32), logsBloom: new Uint8Array(256), difficulty: 1n, number,
  gasLimit: 7_500_000n, gasUsed: 0n, timestamp: 1_700_000_000n + number, extraData: new Uint8Array(), paidFees: 0n, minimumGasPrice: 0n,
  uncleCount: 0, ummRoot: new Uint8Array(), parentChainHeader: new Uint8Array(), parentChainMerkleProof: new Uint8Array(), parentChainCoinbase: new Uint8Array(),
});

/** A reference that records tells and answers asks with `answers`. */
function fakeRef<P extends Protocol>(name: string, answers: { [K in keyof P['ask']]?: (req: P['ask'][K]['req']) => P['ask'][K]['res'] | Promise<P['ask'][K]['res']> }) {
  const told: P['tell'][] = [];
  const asked: { type: string; req: unknown }[] = [];
  const ref: ActorRef<P> = {
    name,
    tell: (msg) => { told.push(msg); },
    ask: async (type, req) => {
      asked.push({ type, req });
      const answer = answers[type];
      if (!answer) throw new Error(`${name} was not expected to answer ${type}`);
      return answer(req as never) as never;
    },
  };
  return { ref, told, asked };
}

/** A miner whose chain builds empty templates on a fixed head and imports whatever it is given. */
async function harness(mode: MiningMode, poolTxs: TypedTransaction[] = [], rejected: Template['rejected'] = []) {
  const head = makeBlock(header(5n), []);
  const builds: BuildRequest[] = [];
  const imported: Block[] = [];
  const templates: Template[] = [];
  const chain = fakeRef<ChainProtocol>('chain', {
    'block.build': (req) => {
      builds.push(req);
      const template: Template = {
        header: header(6n, head.hash), txs: req.txs, uncles: [], hashForMergedMining: randomBytes(32), target: targetFromDifficulty(1n),
        rejected, receipts: [], stateDb: undefined as never,
      };
      templates.push(template);
      return template;
    },
    'block.import': ({ block }): ImportOutcome => { imported.push(block); return { result: 'IMPORTED_BEST', block }; },
  });
  const txpool = fakeRef<TxPoolProtocol>('txpool', { 'pool.executable': () => [...poolTxs] as never });
  const headInfo: HeadInfo = { hash: head.hash, number: 5n, header: head.header, totalDifficulty: 6n };
  const reader = { head: () => headInfo } as unknown as ChainView;
  const miner = spawnMiner({ mode, blockTimeMs: 0, coinbase: new Uint8Array(20), minGasPriceTarget: 0n }, { reader, chain: chain.ref, txpool: txpool.ref });
  await miner.ready;
  return { miner, chain, txpool, builds, imported, templates, head, headInfo };
}

/**
 * Waits until the miner has handled everything told so far and the automine round that scheduled (one or
 * two turns of the event loop later) behind it: asks queue behind tells, one message at a time.
 */
async function drained(miner: { ref: ActorRef<MinerProtocol> }) {
  await miner.ref.ask('mining.status', {});
  await turn();
  await turn();
  await miner.ref.ask('mining.status', {});
}
/** One turn of the event loop: what was scheduled with setImmediate before this runs first. */
const turn = () => new Promise((r) => setImmediate(r));
const fakeTx = (n: number) => ({ hash: () => new Uint8Array(32).fill(n) }) as unknown as TypedTransaction;

Miner('automine: a pending transaction makes it build from the pool and hand the chain a block sealed for it', async () => {
  const pool: TypedTransaction[] = [];
  const h = await harness('auto', pool);
  await drained(h.miner); // the start-up round (for the journal's transactions) found an empty pool
  assert.is(h.imported.length, 0, 'an empty template is not mined in automine');
  pool.push(fakeTx(9));
  h.miner.ref.tell({ type: 'pool.txAdded', pending: true, alone: true });
  await drained(h.miner);
  assert.is(h.imported.length, 1);
  assert.equal(h.imported[0]!.txs, pool, 'the block holds what the pool gave');
  await h.miner.stop();
});

/**
 * Sends that reach the node while a block is built join the pool together: automine waits one more turn of the
 * event loop for them (the sends read in that turn), so one block carries them all, after a transaction that joins
 * others and after a head change; a transaction alone in the pool is built at once.
 */
const ROUNDS: readonly { name: string; event: (h: Awaited<ReturnType<typeof harness>>) => MinerProtocol['tell']; blocks: number[] }[] = [
  { name: 'a transaction alone in the pool is built on the next turn', event: () => ({ type: 'pool.txAdded', pending: true, alone: true }), blocks: [1] },
  { name: 'a transaction that joins others waits one turn more for the sends read in it', event: () => ({ type: 'pool.txAdded', pending: true, alone: false }), blocks: [2] },
  { name: 'after a head change it waits for the sends read in the next turn', event: (h) => ({ type: 'chain.headChanged', head: h.headInfo, added: [], removed: [] }), blocks: [2] },
];
for (const { name, event, blocks } of ROUNDS) {
  Miner(`automine: ${name}`, async () => {
    const pool: TypedTransaction[] = [];
    const h = await harness('auto', pool);
    await drained(h.miner);
    pool.push(fakeTx(1));
    h.miner.ref.tell(event(h));
    await h.miner.ref.ask('mining.status', {}); // the tell is handled: its round is scheduled
    await turn(); // a send read on the next turn
    pool.push(fakeTx(2));
    await drained(h.miner);
    assert.equal(h.imported.map((b) => b.txs.length), blocks, 'transactions per block');
    await h.miner.stop();
  });
}

Miner('mine.now seals the template it built: the proof verifies against that template\'s hashForMergedMining', async () => {
  const h = await harness('off');
  const result = await h.miner.ref.ask('mine.now', {});
  assert.is(result.result, 'IMPORTED_BEST');
  assert.is(h.imported.length, 1);
  const block = h.imported[0]!;
  const template = h.templates[h.templates.length - 1]!;
  assert.is(block.header.number, 6n);
  const verdict = verifyMergedMiningProof({
    header: block.header.parentChainHeader, coinbase: block.header.parentChainCoinbase, proof: block.header.parentChainMerkleProof,
    hashForMergedMining: template.hashForMergedMining, difficulty: 1n,
  });
  assert.equal(verdict, { ok: true });
  const other = verifyMergedMiningProof({
    header: block.header.parentChainHeader, coinbase: block.header.parentChainCoinbase, proof: block.header.parentChainMerkleProof,
    hashForMergedMining: randomBytes(32), difficulty: 1n,
  });
  assert.is(other.ok, false, 'the seal commits to this template only');
  await h.miner.stop();
});

Miner('a queued transaction does not start an automine round', async () => {
  const h = await harness('auto');
  await drained(h.miner);
  const asked = h.txpool.asked.length;
  h.miner.ref.tell({ type: 'pool.txAdded', pending: false, alone: true });
  await drained(h.miner);
  assert.is(h.txpool.asked.length, asked, 'no build after a queued transaction');
  await h.miner.stop();
});

Miner('a block imported off the best chain is offered as an uncle candidate; one that became the head is not', async () => {
  const h = await harness('off');
  const sibling = makeBlock(header(5n, randomBytes(32)), []);
  const best = makeBlock(header(6n, h.head.hash), []);
  h.miner.ref.tell({ type: 'chain.blockImported', block: sibling, best: false });
  h.miner.ref.tell({ type: 'chain.blockImported', block: best, best: true });
  await h.miner.ref.ask('work.get', {});
  const candidates = h.builds[h.builds.length - 1]!.uncleCandidates ?? [];
  assert.is(candidates.length, 1);
  assert.is(candidates[0], sibling.header);
  await h.miner.stop();
});

Miner('transactions a build refused are dropped from the pool, unless they only wait for room or a lower minimum', async () => {
  const h = await harness('off', [], [
    { tx: fakeTx(1), reason: 'invalid nonce' },
    { tx: fakeTx(2), reason: 'transaction does not fit in the block gas limit' },
    { tx: fakeTx(3), reason: "transaction's gas price lower than block's minimum" },
  ]);
  await h.miner.ref.ask('work.get', {});
  const dropped = h.txpool.told.filter((m) => m.type === 'tx.dropped');
  assert.is(dropped.length, 1);
  assert.equal((dropped[0] as { hashes: string[] }).hashes, [`0x${'01'.repeat(32)}`]);
  await h.miner.stop();
});

Miner('a solution for work it never handed out is refused with the reference\'s message, and nothing reaches the chain', async () => {
  const h = await harness('off');
  await h.miner.ref.ask('work.get', {});
  const unknown = randomBytes(32);
  const parent = parentBlockTemplate(unknown, 1_700_000_000);
  const solution = solutionFromParentBlock(parentBlockBytes(parent, 0));
  const err = await h.miner.ref.ask('work.submit', solution).then(() => undefined, (e: Error) => e);
  assert.ok(err, 'refused');
  assert.match(err!.message, /could not find hash 0x[0-9a-f]{64} in the cache/);
  assert.is(h.imported.length, 0);
  await h.miner.stop();
});

Miner.run();

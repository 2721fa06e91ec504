/**
 * hashForMergedMining reads canonical ancestors and their uncle counts (fork detection from height
 * 449): what the writer keeps of the head's ancestry must match a fresh walk, before and after a reorg.
 */
import { bytesToHex } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import type { BlockHeader } from '../../../src/chain/codec/header.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import { ChainReader } from '../../../src/chain/reader.ts';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { ChainWriter } from '../../../src/chain/writer.ts';
import { buildMergedMiningSeal } from '../../../src/mergedmining/index.ts';
import { tempDir } from '../../helpers/node.ts';

const ForkDetection = suite('fork detection data');
const dir = tempDir();
const reader = new ChainReader(new ChainStore(dir), createChainCommon(NETWORKS.regtest), NETWORKS.regtest);
const writer = new ChainWriter(reader);

ForkDetection.after(async () => { await reader.store.close(); rmSync(dir, { recursive: true, force: true }); });

async function sealed(header: BlockHeader, uncles: readonly BlockHeader[] = []): Promise<Block> {
  const s = buildMergedMiningSeal(await writer.hashForMergedMining(header), header.difficulty, {})!;
  return makeBlock({ ...header, parentChainHeader: s.header, parentChainCoinbase: s.coinbase, parentChainMerkleProof: s.proof }, [], uncles);
}
const build = (coinbase = NETWORKS.regtest.defaultCoinbase, uncleCandidates: BlockHeader[] = []) =>
  writer.build({ coinbase, txs: [], timestamp: 0n, minimumGasPriceTarget: 0n, uncleCandidates });
async function mineOnHead(uncleCandidates: BlockHeader[] = []): Promise<Block> {
  const t = await build(undefined, uncleCandidates);
  const block = await sealed(t.header, t.uncles);
  const o = await writer.import(block);
  assert.is(o.result, 'IMPORTED_BEST', `${block.header.number}: ${o.reason}`);
  return block;
}
/** Two blocks on the head; the one that loses the tie-break is returned (an uncle for the next block). */
async function twoSiblings(): Promise<Block> {
  const [a, b] = [await sealed((await build()).header), await sealed((await build(new Uint8Array(20).fill(7))).header)];
  await writer.import(a);
  await writer.import(b);
  return bytesToHex(reader.head().hash) === bytesToHex(a.hash) ? b : a;
}
async function assertMatchesFreshWalk() {
  const next = await build();
  const fresh = new ChainWriter(reader); // nothing cached
  assert.is(bytesToHex(next.hashForMergedMining), bytesToHex(await fresh.hashForMergedMining(next.header)));
}
/** A sibling of `block` (same parent, one second later), sealed for its own position. */
const siblingOf = (block: Block) => sealed({ ...block.header, timestamp: block.header.timestamp + 1n });

ForkDetection('with an uncle at 500 and a reorg across 512, blocks on the head commit to their real ancestry', async () => {
  await reader.store.open();
  await writer.init();
  let a512: Block | undefined;
  while (reader.head().number < 513n) {
    const b = reader.head().number === 498n ? await mineOnHead([(await twoSiblings()).header]) : await mineOnHead();
    if (b.header.number === 500n) assert.is(b.header.uncleCount, 1);
    if (b.header.number === 505n) await assertMatchesFreshWalk();
    if (b.header.number === 512n) a512 = b;
  }
  // The other branch replaces 512 and 513 and grows one block longer.
  let tip = await siblingOf(a512!);
  assert.is((await writer.import(tip)).result, 'IMPORTED_NOT_BEST');
  for (let i = 0; i < 2; i++) {
    const p = tip.header;
    tip = await sealed({ ...p, parentHash: tip.hash, number: p.number + 1n, timestamp: p.timestamp + 1n });
    await writer.import(tip);
  }
  assert.is(bytesToHex(reader.head().hash), bytesToHex(tip.hash));
  await assertMatchesFreshWalk();
  while (reader.head().number < 532n) await mineOnHead(); // the uncle at 500 just left the 32-block window
  await assertMatchesFreshWalk();
});

ForkDetection('after rewinds, within a window and across window starts, blocks on the new head commit to their real ancestry', async () => {
  while (reader.head().number < 650n) await mineOnHead();
  // Blocks mined again after a rewind have another coinbase: not the removed blocks over again.
  const mineOther = async () => {
    const t = await build(new Uint8Array(20).fill(9));
    assert.is((await writer.import(await sealed(t.header, t.uncles))).result, 'IMPORTED_BEST');
  };
  // 650 → 645: the head's window (from 640) stays; 645 → 600: back across 640, into the window from 576.
  for (const to of [645n, 600n]) {
    await writer.rewind(to);
    await assertMatchesFreshWalk();
    await mineOther();
    await mineOther();
    await assertMatchesFreshWalk();
  }
  // Up past 640 again: the new block there, not the removed one, is in the ancestry.
  while (reader.head().number < 710n) await mineOther();
  await assertMatchesFreshWalk();
});

ForkDetection.run();

/** hashForMergedMining reads canonical ancestors (fork detection from height 449): a reorg must be seen by it. */
import { bytesToHex } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeBlock, type Block } from '../../src/chain/block.ts';
import { createChainCommon } from '../../src/chain/execution.ts';
import type { BlockHeader } from '../../src/chain/header.ts';
import { NETWORKS } from '../../src/chain/networks.ts';
import { ChainReader } from '../../src/chain/reader.ts';
import { ChainStore } from '../../src/chain/store.ts';
import { ChainWriter } from '../../src/chain/writer.ts';
import { buildMergedMiningSeal } from '../../src/mergedmining/index.ts';
import { tempDir } from '../helpers/node.ts';

const ForkDetection = suite('fork detection data');
const dir = tempDir();
const reader = new ChainReader(new ChainStore(dir), createChainCommon(NETWORKS.regtest), NETWORKS.regtest);
const writer = new ChainWriter(reader);

ForkDetection.after(async () => { await reader.store.close(); rmSync(dir, { recursive: true, force: true }); });

async function sealed(header: BlockHeader, w = writer): Promise<Block> {
  const s = buildMergedMiningSeal(await w.hashForMergedMining(header), header.difficulty, {})!;
  return makeBlock({ ...header, parentChainHeader: s.header, parentChainCoinbase: s.coinbase, parentChainMerkleProof: s.proof }, []);
}
async function mineOnHead(): Promise<Block> {
  const t = await writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [], timestamp: 0n, minimumGasPriceTarget: 0n });
  const block = await sealed(t.header);
  assert.is((await writer.import(block)).result, 'IMPORTED_BEST');
  return block;
}
/** A sibling of `block` (same parent, one second later), sealed for its own position. */
const siblingOf = (block: Block) => sealed({ ...block.header, timestamp: block.header.timestamp + 1n });

ForkDetection('after a reorg across height 512, blocks on the new head commit to the new ancestors', async () => {
  await reader.store.open();
  await writer.init();
  let a512: Block | undefined;
  while (reader.head().number < 513n) {
    const b = await mineOnHead();
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
  const next = await writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [], timestamp: 0n, minimumGasPriceTarget: 0n });
  const fresh = new ChainWriter(reader); // no cached ancestry
  assert.is(bytesToHex(next.hashForMergedMining), bytesToHex(await fresh.hashForMergedMining(next.header)));
  assert.is((await writer.import(await sealed(next.header))).result, 'IMPORTED_BEST');
});

ForkDetection.run();

/**
 * Sync batches imported as runs (ChainWriter.importRun) into another store: blocks that read the
 * blocks just before them (BLOCKHASH, fork detection) verify exactly as on the node that mined them,
 * also after a reorg in the middle of a run; a run stops at an invalid block, the blocks before it
 * stored and nothing of it or after it.
 */
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromPrivateKey, generateAddress, hexToBytes } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import type { BlockHeader } from '../../../src/chain/codec/header.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import { ChainReader } from '../../../src/chain/reader.ts';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { ChainWriter } from '../../../src/chain/writer.ts';
import { buildMergedMiningSeal } from '../../../src/mergedmining/index.ts';
import { openTestChain } from '../../helpers/chain.ts';
import { tempDir } from '../../helpers/node.ts';

const ImportRun = suite('import of a sync batch');
const common = createChainCommon(NETWORKS.regtest);
const chain = () => {
  const dir = tempDir();
  const reader = new ChainReader(new ChainStore(dir), common, NETWORKS.regtest);
  return { dir, reader, writer: new ChainWriter(reader) };
};
const [source, joiner] = [chain(), chain()];

ImportRun.after(async () => {
  for (const c of [source, joiner]) { await c.reader.store.close(); rmSync(c.dir, { recursive: true, force: true }); }
});

// Runtime code: sstore(0, blockhash(number - 1)); the init code returns it.
const RUNTIME = '43600190034060005500';
const INIT = `0x600a600c600039600a6000f3${RUNTIME}`;
const key = DEV_ACCOUNTS[0]!.privateKey;
const tx = (nonce: bigint, to?: Uint8Array) =>
  createLegacyTx({ nonce, to, data: to ? undefined : hexToBytes(INIT), gasLimit: 100_000n, gasPrice: 0n }, { common }).sign(key);

/** `header` sealed for its position on the source chain, with `txs`. */
async function sealed(header: BlockHeader, txs: readonly TypedTransaction[] = []): Promise<Block> {
  const seal = buildMergedMiningSeal(await source.writer.hashForMergedMining(header), header.difficulty, {})!;
  return makeBlock({ ...header, parentChainHeader: seal.header, parentChainCoinbase: seal.coinbase, parentChainMerkleProof: seal.proof }, txs);
}

/** Mines a block with `txs` on the source chain. */
async function mine(txs: ReturnType<typeof tx>[] = []): Promise<Block> {
  const t = await source.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs, timestamp: 0n, minimumGasPriceTarget: 0n });
  assert.is(t.txs.length, txs.length);
  const block = await sealed(t.header, t.txs);
  assert.is((await source.writer.import(block)).result, 'IMPORTED_BEST');
  return block;
}

/** The child of `parent` one second later, without transactions (the source may have another head). */
const childOf = async (parent: Block) =>
  sealed({ ...parent.header, parentHash: parent.hash, number: parent.header.number + 1n, timestamp: parent.header.timestamp + 1n });

ImportRun('blocks calling BLOCKHASH of the blocks before them import in one run', async () => {
  for (const c of [source, joiner]) { await c.reader.store.open(); await c.writer.init(); }
  const contract = generateAddress(createAddressFromPrivateKey(key).bytes, new Uint8Array());
  const blocks = [await mine([tx(0n)])];
  for (let nonce = 1n; nonce <= 3n; nonce++) blocks.push(await mine([tx(nonce, contract)]));
  const outcomes = await joiner.writer.importRun(blocks);
  assert.equal(outcomes.map((o) => o.reason ?? o.result), blocks.map(() => 'IMPORTED_BEST'));
  assert.is(bytesToHex(joiner.reader.head().hash), bytesToHex(blocks[3]!.hash));
});

ImportRun('a reorg inside a run reaches the disk before the blocks after it read the new canonical chain', async () => {
  const blocks: Block[] = [];
  while (source.reader.head().number < 513n) blocks.push(await mine());
  for (let i = 0; i < blocks.length; i += 128) await joiner.writer.importRun(blocks.slice(i, i + 128));
  // The other branch from 511: its 512 is what fork detection of blocks from 513 on reads (height 512).
  const a512 = blocks.find((b) => b.header.number === 512n)!;
  const b512 = await sealed({ ...a512.header, timestamp: a512.header.timestamp + 1n });
  await source.writer.import(b512);
  const b513 = await childOf(b512);
  await source.writer.import(b513);
  const b514 = await childOf(b513);
  await source.writer.import(b514);
  assert.is(bytesToHex(source.reader.head().hash), bytesToHex(b514.hash));
  const b515 = await mine();
  const outcomes = await joiner.writer.importRun([b512, b513, b514, b515]);
  assert.equal(outcomes.map((o) => o.reason ?? o.result).slice(2), ['IMPORTED_BEST', 'IMPORTED_BEST']);
  assert.is(bytesToHex(joiner.reader.head().hash), bytesToHex(b515.hash));
  assert.is(bytesToHex((await joiner.reader.canonicalHash(512n))!), bytesToHex(b512.hash));
});

ImportRun('a run with an invalid block in the middle keeps the blocks before it, stores nothing from it on, and goes on from there', async () => {
  const [src, dst] = [await openTestChain(), await openTestChain()];
  try {
    const blocks: Block[] = [];
    for (let nonce = 0n; nonce < 12n; nonce++) {
      const transfer = createLegacyTx({ nonce, to: DEV_ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n }, { common }).sign(key);
      const t = await src.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [transfer], timestamp: 0n, minimumGasPriceTarget: 0n });
      const block = await src.sealed(t);
      assert.is((await src.writer.import(block)).result, 'IMPORTED_BEST');
      blocks.push(block);
    }
    // Block 6 claims another receipts root and is sealed for it: its proof holds, its execution does not.
    const real = blocks[5]!;
    const forged = makeBlock(await src.seal({ ...real.header, receiptsRoot: new Uint8Array(32).fill(7) }), real.txs);
    const outcomes = await dst.writer.importRun([...blocks.slice(0, 5), forged, ...blocks.slice(6)]);
    assert.equal(outcomes.map((o) => o.reason ?? o.result), [...blocks.slice(0, 5).map(() => 'IMPORTED_BEST'), 'receipts root mismatch']);
    assert.is(bytesToHex(dst.reader.head().hash), bytesToHex(blocks[4]!.hash));
    // On disk: the five blocks, their transactions and the head; nothing of block 6 or after it.
    assert.is(bytesToHex((await dst.reader.store.meta.get(ChainStore.HEAD))!), bytesToHex(blocks[4]!.hash));
    assert.is(bytesToHex((await dst.reader.canonicalHash(5n))!), bytesToHex(blocks[4]!.hash));
    assert.is(await dst.reader.canonicalHash(6n), undefined);
    assert.equal(await dst.reader.store.headers.hasMany([forged.hash, blocks[6]!.hash, blocks[11]!.hash]), [false, false, false]);
    assert.equal(await dst.reader.store.txloc.hasMany([blocks[4]!.txs[0]!.hash(), real.txs[0]!.hash()]), [true, false]);
    // The valid block 6 and the rest import on top.
    const rest = await dst.writer.importRun(blocks.slice(5));
    assert.equal(rest.map((o) => o.reason ?? o.result), blocks.slice(5).map(() => 'IMPORTED_BEST'));
    assert.is(bytesToHex(dst.reader.head().hash), bytesToHex(blocks[11]!.hash));
  } finally {
    await src.close();
    await dst.close();
  }
});

ImportRun.run();

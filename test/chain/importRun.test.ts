/**
 * A sync batch imported as one run (ChainWriter.importRun) into another store: blocks that read the
 * hashes of the blocks just before them (BLOCKHASH) execute exactly as on the node that mined them.
 */
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, createAddressFromPrivateKey, generateAddress, hexToBytes } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeBlock, type Block } from '../../src/chain/block.ts';
import { createChainCommon } from '../../src/chain/execution.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../src/chain/networks.ts';
import { ChainReader } from '../../src/chain/reader.ts';
import { ChainStore } from '../../src/chain/store.ts';
import { ChainWriter } from '../../src/chain/writer.ts';
import { buildMergedMiningSeal } from '../../src/mergedmining/index.ts';
import { tempDir } from '../helpers/node.ts';

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

/** Mines a block with `txs` on the source chain. */
async function mine(txs: ReturnType<typeof tx>[]): Promise<Block> {
  const t = await source.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs, timestamp: 0n, minimumGasPriceTarget: 0n });
  assert.is(t.txs.length, txs.length);
  const seal = buildMergedMiningSeal(t.hashForMergedMining, t.header.difficulty, {})!;
  const block = makeBlock({ ...t.header, parentChainHeader: seal.header, parentChainCoinbase: seal.coinbase, parentChainMerkleProof: seal.proof }, t.txs);
  assert.is((await source.writer.import(block)).result, 'IMPORTED_BEST');
  return block;
}

ImportRun('blocks calling BLOCKHASH of the blocks before them import in one run', async () => {
  for (const c of [source, joiner]) { await c.reader.store.open(); await c.writer.init(); }
  const contract = generateAddress(createAddressFromPrivateKey(key).bytes, new Uint8Array());
  const blocks = [await mine([tx(0n)])];
  for (let nonce = 1n; nonce <= 3n; nonce++) blocks.push(await mine([tx(nonce, contract)]));
  const outcomes = await joiner.writer.importRun(blocks);
  assert.equal(outcomes.map((o) => o.reason ?? o.result), blocks.map(() => 'IMPORTED_BEST'));
  assert.is(bytesToHex(joiner.reader.head().hash), bytesToHex(blocks[3]!.hash));
});

ImportRun.run();

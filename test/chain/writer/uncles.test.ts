/** Uncles: siblings are included within the rules, rewarded from the including block's fees, and counted in total difficulty. */
import { createLegacyTx } from '@ethereumjs/tx';
import { Address, bytesToHex, compareBytes, hexToBytes } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import { uncleShares } from '../../../src/chain/execution/blockRunner.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { unclesHashOf, type BlockHeader } from '../../../src/chain/codec/header.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import type { ChainReader } from '../../../src/chain/reader.ts';
import type { ChainWriter } from '../../../src/chain/writer.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';

const Uncles = suite('uncles');
const common = createChainCommon(NETWORKS.regtest);
let chain: TestChain;
let reader: ChainReader;
let writer: ChainWriter;
const X = hexToBytes('0x1000000000000000000000000000000000000001');
const Y = hexToBytes('0x2000000000000000000000000000000000000002');
const Z = hexToBytes('0x3000000000000000000000000000000000000003');
const GAS_PRICE = 1_000_000_000n;

Uncles.after(async () => { await chain?.close(); });

let nonce = 0n;
const pricedTransfer = () => createLegacyTx({ nonce: nonce++, to: hexToBytes('0x09a1eda29f664ac8f68106f6567276df0c65d859'), value: 1n, gasLimit: 21_000n, gasPrice: GAS_PRICE }, { common })
  .sign(DEV_ACCOUNTS[0]!.privateKey);
const build = (coinbase: Uint8Array, opts: { txs?: ReturnType<typeof pricedTransfer>[]; uncleCandidates?: BlockHeader[] } = {}) =>
  writer.build({ coinbase, txs: opts.txs ?? [], timestamp: BigInt(Math.floor(Date.now() / 1000)), minimumGasPriceTarget: 0n, uncleCandidates: opts.uncleCandidates });
const balance = async (a: Uint8Array) => (await reader.stateAt(reader.head().header.stateRoot).getAccount(new Address(a)))?.balance ?? 0n;

let sibling: Block;

Uncles('a sibling of the head is included as an uncle and shares the fees', async () => {
  ({ reader, writer } = chain = await openTestChain());
  const fromX = await chain.sealed(await build(X));
  const fromY = await chain.sealed(await build(Y)); // same parent, other miner
  assert.is((await writer.import(fromX)).result, 'IMPORTED_BEST');
  // Equal total difficulty: the lower hash stays the head, the other is the sibling.
  const yWins = compareBytes(fromY.hash, fromX.hash) < 0;
  assert.is((await writer.import(fromY)).result, yWins ? 'IMPORTED_BEST' : 'IMPORTED_NOT_BEST');
  const side = yWins ? fromX : fromY;
  const sideMiner = yWins ? X : Y;
  sibling = side;

  // Z mines the next block: its fees are shared with the sibling's miner.
  const t = await build(Z, { txs: [pricedTransfer()], uncleCandidates: [side.header] });
  assert.is(t.uncles.length, 1);
  assert.is(t.header.uncleCount, 1);
  const including = await chain.sealed(t);
  const outcome = await writer.import(including);
  assert.is(outcome.result, 'IMPORTED_BEST');
  const fees = 21_000n * GAS_PRICE;
  assert.is(including.header.paidFees, fees);
  const { payments, taken } = uncleShares(fees, including.header.number, [{ coinbase: sideMiner, number: side.header.number }]);
  assert.is(payments[0], (fees - fees / 10n) / 2n, 'an uncle one block back gets a full share');
  assert.is(await balance(sideMiner), payments[0]);
  assert.is(await balance(Z), fees - taken);
  const td = await reader.totalDifficulty(including.hash);
  assert.is(td, 1n + 1n + 1n + 1n, 'genesis + main + including + the uncle');
});

Uncles('a late uncle loses 5 % per block of delay', () => {
  const { payments } = uncleShares(1000n, 10n, [{ coinbase: Y, number: 7n }]);
  const share = (1000n - 100n) / 2n;
  assert.is(payments[0], (share * 90n) / 100n); // included two blocks late
});

Uncles('ineligible uncles are refused at import and skipped when building', async () => {
  const head = bytesToHex(reader.head().hash);
  // already included
  const t = await build(Z, { uncleCandidates: [sibling.header] });
  assert.is(t.uncles.length, 0, 'the miner does not include an uncle twice');
  const forced = { ...t.header, uncleCount: 1, unclesHash: unclesHashOf([sibling.header]) };
  const block = makeBlock(await chain.seal(forced), [], [sibling.header]);
  const r = await writer.import(block);
  assert.is(r.result, 'INVALID_BLOCK');
  assert.match(r.reason!, /already included/);
  // an ancestor is not an uncle
  const parent = (await reader.getHeader(reader.head().header.parentHash))!;
  const r2 = await writer.unclesProblem(reader.head().hash, reader.head().number + 1n, [parent]);
  assert.match(r2!, /ancestor/);
  // an unsealed header has no valid proof
  const unsealed = { ...sibling.header, parentChainHeader: new Uint8Array(80) };
  assert.ok(await writer.unclesProblem(reader.head().hash, reader.head().number + 1n, [unsealed]));
  assert.is(bytesToHex(reader.head().hash), head, 'none of it moved the head');
});

Uncles.run();

/** Block import against a real LevelDB: only blocks with a valid merged-mining proof and exact execution are stored. */
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, compareBytes, createAddressFromString, hexToBytes, type Account } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeBlock, makeBlock, type Block } from '../../../src/chain/codec/block.ts';
import { stateManagerAt } from '../../../src/chain/execution/blockRunner.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import type { BlockHeader } from '../../../src/chain/codec/header.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';
import { ChainReader } from '../../../src/chain/reader.ts';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { ChainWriter, type Template } from '../../../src/chain/writer.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';

const Import = suite('block import');
const common = createChainCommon(NETWORKS.regtest);
const COINBASE = NETWORKS.regtest.defaultCoinbase;
let nonce = 0n;
let chain: TestChain;
let reader: ChainReader;
let writer: ChainWriter;

Import.after(async () => { await chain?.close(); });

const RECIPIENT = '0x09a1eda29f664ac8f68106f6567276df0c65d859';
const transfer = () => createLegacyTx({ nonce: nonce++, to: hexToBytes(RECIPIENT), value: 5n, gasLimit: 21_000n, gasPrice: 0n }, { common })
  .sign(DEV_ACCOUNTS[0]!.privateKey);

const build = (txs = [transfer()]) => writer.build({ coinbase: COINBASE, txs, timestamp: BigInt(Math.floor(Date.now() / 1000)), minimumGasPriceTarget: 0n });

const seal = (header: BlockHeader, hashForMergedMining?: Uint8Array) => chain.seal(header, hashForMergedMining);
const sealed = (t: Template) => chain.sealed(t);
const childOf = (parent: Block) => chain.emptyChildOf(parent);

Import('a sealed template imports as the new head', async () => {
  ({ reader, writer } = chain = await openTestChain());
  assert.is(reader.head().number, 0n);
  const block = await sealed(await build());
  const outcome = await writer.import(block);
  assert.is(outcome.result, 'IMPORTED_BEST');
  assert.is(bytesToHex(reader.head().hash), bytesToHex(block.hash));
  assert.is((await writer.import(block)).result, 'EXIST');
  // Served to peers from the stored bytes, byte for byte the block's encoding.
  const hex = (xs: (Uint8Array | undefined)[]) => xs.map((x) => x && bytesToHex(x));
  assert.equal(hex(await reader.rawBlocks([block.hash, new Uint8Array(32)])), [bytesToHex(encodeBlock(block)), undefined]);
  assert.equal(hex(await reader.canonicalHashes(0n, 5)), hex([(await reader.canonicalHash(0n))!, block.hash]));
});

Import('the accounts a block wrote read at its head as its state trie holds them', async () => {
  const block = await sealed(await build([transfer(), transfer()]));
  assert.is((await writer.import(block)).result, 'IMPORTED_BEST');
  const root = block.header.stateRoot;
  const trieOnly = stateManagerAt(reader.trieDb, root, common); // no accounts handed over: reads walk the trie
  const sender = bytesToHex(DEV_ACCOUNTS[0]!.address);
  const parentRoot = (await reader.getHeader(block.header.parentHash))!.stateRoot;
  const trieAtParent = stateManagerAt(reader.trieDb, parentRoot, common);
  const encoded = (a: Account | undefined) => a && bytesToHex(a.serialize());
  // Written by the block, not written (read from the trie), and at the parent's root.
  for (const who of [sender, RECIPIENT, bytesToHex(COINBASE), bytesToHex(DEV_ACCOUNTS[3]!.address)]) {
    const address = createAddressFromString(who);
    const stored = encoded(await trieOnly.getAccount(address));
    assert.equal(encoded(await reader.accountAt(root, address)), stored, who);
    assert.equal(encoded(await reader.stateAt(root).getAccount(address)), stored, who);
    assert.equal(encoded(await reader.accountAt(root, address)), stored, `${who}, read again`);
    assert.equal(encoded(await reader.accountAt(parentRoot, address)), encoded(await trieAtParent.getAccount(address)), `${who} at the parent`);
  }
  assert.is((await reader.stateAt(root).getAccount(createAddressFromString(sender)))?.nonce, nonce);
  assert.ok(await reader.stateAt(root).getAccount(createAddressFromString(RECIPIENT)));
});

Import('blocks without a valid merged-mining proof are refused and change nothing', async () => {
  const head = bytesToHex(reader.head().hash);
  const t = await build();
  const unsealed = makeBlock(t.header, t.txs);
  const r1 = await writer.import(unsealed);
  assert.is(r1.result, 'INVALID_BLOCK');
  assert.match(r1.reason!, /merged-mining proof/);

  const other = await build([transfer()]); // another template: its seal commits to a different hash
  const wrongSeal = makeBlock(await seal(t.header, other.hashForMergedMining), t.txs);
  const r2 = await writer.import(wrongSeal);
  assert.is(r2.result, 'INVALID_BLOCK');
  assert.match(r2.reason!, /hash/);

  const good = await sealed(t);
  const flipped = new Uint8Array(good.header.parentChainHeader);
  flipped[40] ^= 0xff; // inside the Merkle root: the coinbase proof no longer leads to it
  const r3 = await writer.import(makeBlock({ ...good.header, parentChainHeader: flipped }, t.txs));
  assert.is(r3.result, 'INVALID_BLOCK');
  assert.is(bytesToHex(reader.head().hash), head);
  assert.is(await reader.store.headers.has(unsealed.hash), false);
  nonce = 1n; // none of these transfers was stored
});

Import('a block whose execution does not match its header is refused', async () => {
  const t = await build();
  const badRoot = { ...t.header, stateRoot: new Uint8Array(32).fill(7) };
  const block = makeBlock(await seal(badRoot), t.txs);
  const r = await writer.import(block);
  assert.is(r.result, 'INVALID_BLOCK');
  assert.is(r.reason, 'state root mismatch');
  const badGas = { ...t.header, gasUsed: 1n };
  const r2 = await writer.import(makeBlock(await seal(badGas), t.txs));
  assert.is(r2.result, 'INVALID_BLOCK');
  assert.match(r2.reason!, /gas used/);
  // the honest version of the same template still imports
  assert.is((await writer.import(await sealed(t))).result, 'IMPORTED_BEST');
});

Import('a block whose parent is unknown is NO_PARENT', async () => {
  const t = await build();
  const orphan = { ...t.header, parentHash: new Uint8Array(32).fill(1) };
  const r = await writer.import(makeBlock(await seal(orphan), t.txs));
  assert.is(r.result, 'NO_PARENT');
});

Import('a heavier side branch becomes canonical and the lookups follow it', async () => {
  // Two siblings on the same parent; the second branch grows longer and wins.
  const base = reader.head();
  const a = await sealed(await build([]));
  assert.is((await writer.import(a)).result, 'IMPORTED_BEST');
  // Build b on `base` by rebuilding from its parent: import a sibling with a different timestamp.
  const sib = { ...a.header, timestamp: a.header.timestamp + 1n };
  const b = makeBlock(await seal(sib), []);
  // Equal total difficulty: the lower hash is the head, whichever arrived first.
  const bWins = compareBytes(b.hash, a.hash) < 0;
  assert.is((await writer.import(b)).result, bWins ? 'IMPORTED_BEST' : 'IMPORTED_NOT_BEST');
  const [winner, loser] = bWins ? [b, a] : [a, b];
  assert.is(bytesToHex(reader.head().hash), bytesToHex(winner.hash));
  // A child of the losing sibling makes its branch heavier.
  const child = await childOf(loser);
  const outcome = await writer.import(child);
  assert.is(outcome.result, 'IMPORTED_BEST');
  assert.equal(outcome.headChange!.removed.map((x) => bytesToHex(x.hash)), [bytesToHex(winner.hash)]);
  assert.equal(outcome.headChange!.added.map((x) => bytesToHex(x.hash)), [bytesToHex(loser.hash), bytesToHex(child.hash)]);
  assert.is(bytesToHex((await reader.canonicalHash(base.number + 1n))!), bytesToHex(loser.hash));
});

Import('a run is stored up to its first invalid block, and the head is its last valid one', async () => {
  const a = await childOf((await reader.getBlock(reader.head().hash))!);
  const b = await childOf(a);
  const c = await childOf(b);
  const badHeader = { ...c.header, gasUsed: 1n };
  const bad = makeBlock(await seal(badHeader), []);
  const outcomes = await writer.importRun([a, b, bad, await childOf(c)]);
  assert.equal(outcomes.map((o) => o.result), ['IMPORTED_BEST', 'IMPORTED_BEST', 'INVALID_BLOCK']);
  assert.is(bytesToHex(reader.head().hash), bytesToHex(b.hash));
  assert.is(bytesToHex((await reader.canonicalHash(b.header.number))!), bytesToHex(b.hash));
  assert.is(await reader.store.headers.has(bad.hash), false);
  assert.equal((await writer.importRun([a, b, c])).map((o) => o.result), ['EXIST', 'EXIST', 'IMPORTED_BEST']);
});

Import('a block without transactions keeps its parent\'s state: one claiming another state root, fees or receipts is refused', async () => {
  const parent = (await reader.getBlock(reader.head().hash))!;
  const empty = await childOf(parent);
  const forged = [{ stateRoot: new Uint8Array(32).fill(1) }, { paidFees: 1n }, { receiptsRoot: parent.header.stateRoot }];
  for (const fields of forged) {
    const outcome = await writer.import(makeBlock(await seal({ ...empty.header, ...fields }), []));
    assert.is(outcome.result, 'INVALID_BLOCK', JSON.stringify(Object.keys(fields)));
  }
  assert.is((await writer.import(empty)).result, 'IMPORTED_BEST');
  assert.is(bytesToHex(reader.head().header.stateRoot), bytesToHex(parent.header.stateRoot));
});

Import('canonical blocks of a range, read together where not cached, are the stored ones; a range past the head ends there; one up to the head comes from the cache', async () => {
  const head = reader.head();
  assert.ok(head.number >= 3n, 'the tests above left a few blocks');
  // Another reader of the same store: its cache holds nothing yet.
  const fresh = new ChainReader(new ChainStore((reader.store.db as unknown as { location: string }).location), common, NETWORKS.regtest);
  await fresh.store.open();
  try {
    fresh.publishHead(head);
    const stored = await Promise.all(Array.from({ length: Number(head.number) + 1 }, (_, n) => reader.canonicalBlock(BigInt(n))));
    const encodings = (blocks: readonly (Block | undefined)[]) => blocks.map((b) => b && bytesToHex(encodeBlock(b)));
    assert.equal(encodings(await fresh.canonicalBlocks(0n, head.number)), encodings(stored));
    assert.equal(encodings(await fresh.canonicalBlocks(1n, 2n)), encodings(stored.slice(1, 3)), 'a part of it');
    assert.equal(encodings(await fresh.canonicalBlocks(head.number, head.number + 5n)), encodings(stored.slice(-1)));
    // A range up to the head whose blocks the cache holds (an evm_revert's) is walked down from the head, no store read.
    for (const b of stored.slice(1)) await fresh.getBlock(b!.hash);
    await fresh.store.close();
    assert.equal(encodings(await fresh.canonicalBlocks(1n, head.number)), encodings(stored.slice(1)));
    const err = await fresh.canonicalBlocks(0n, head.number).catch((e: Error) => e);
    assert.match(String(err), /not open/, 'the genesis is not cached: the store is read');
  } finally {
    await fresh.store.close();
  }
});

Import('the block a writer starts at, the genesis it wrote or the head it found, is cached: a range down to it reads no disk', async () => {
  const first = await openTestChain();
  const dir = (first.reader.store.db as unknown as { location: string }).location;
  const blocks = (got: readonly Block[]) => got.map((b) => bytesToHex(b.hash));
  try {
    const genesis = first.reader.head();
    const block = await first.sealed(await first.writer.build({ coinbase: COINBASE, txs: [], timestamp: genesis.header.timestamp + 1n, minimumGasPriceTarget: 0n }));
    await first.reader.store.close();
    // The store is closed: only the cache can answer (a revert's range from the new head down to genesis).
    assert.equal(blocks(await first.reader.canonicalBlocks(0n, 0n)), [bytesToHex(genesis.hash)]);
    await first.reader.store.open();
    assert.is((await first.writer.import(block)).result, 'IMPORTED_BEST');
    await first.reader.store.close();
    // Started again on the same store: the head it finds is block 1.
    const again = new ChainReader(new ChainStore(dir), common, NETWORKS.regtest);
    await again.store.open();
    const { number } = await new ChainWriter(again).init();
    assert.is(number, 1n);
    await again.store.close();
    assert.equal(blocks(await again.canonicalBlocks(1n, 1n)), [bytesToHex(block.hash)]);
  } finally {
    await first.close();
  }
});

Import.run();

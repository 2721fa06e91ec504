/** Merged-mining RPC against a real node whose built-in client is off: work, every submit form, late work, bad input. */
import { sha256 } from '@noble/hashes/sha2.js';
import { ethers } from 'ethers';
import { spawn } from 'node:child_process';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  buildTaggedCoinbase, merkleRoot, parentTxid, reverseBytes, serializeParentBlock, serializeParentHeader, sha256Resume,
  solveParentHeader, type ParentHeader,
} from '../../../src/mergedmining/index.ts';
import { parseParentTx } from '../../../src/mergedmining/index.ts';
import { startTestNode, type TestNode } from '../../helpers/node.ts';
import { post, rpc, rpcError } from '../../helpers/rpc.ts';

const Mnr = suite('mnr_* and eth_* mining');
let node: TestNode;
const ready = (async () => { node = await startTestNode({ mining: 'off' }); })();
Mnr.after(async () => { await node?.stop(); });

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const fromHex = (h: string) => new Uint8Array(Buffer.from(h.replace(/^0x/, ''), 'hex'));
const ascii = (h: string) => Buffer.from(h.slice(2), 'hex').toString('ascii');
const blockNumber = async () => Number(await rpc(node.url, 'eth_blockNumber'));

interface Work { blockHashForMergedMining: string; target: string; feesPaidToMiner: string; notify: boolean; parentBlockHash: string }

/** A solved one-transaction parent block for `work`, serialized for mnr_submitBitcoinBlock. */
function solvedBlock(work: Work, tweak: (h: ParentHeader) => ParentHeader = (h) => h) {
  const coinbase = buildTaggedCoinbase(fromHex(work.blockHashForMergedMining));
  const txids = [parentTxid(coinbase)];
  const header = solveParentHeader(tweak({ version: 0x20000000, prevHash: new Uint8Array(32), merkleRoot: merkleRoot(txids), time: 1_700_000_000, bits: 0x207fffff, nonce: 0 }), BigInt(work.target))!;
  return { coinbase, header, bytes: serializeParentBlock({ header, txs: [parseParentTx(coinbase).tx] }) };
}

const dev = new ethers.Wallet('0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d');
let devNonce = 0;
const sendTransfer = async () => rpc(node.url, 'eth_sendRawTransaction', [
  await dev.signTransaction({ to: '0x09a1eda29f664ac8f68106f6567276df0c65d859', value: 1n, nonce: devNonce++, gasLimit: 21_000, gasPrice: 0, chainId: 33 })]);

Mnr('mnr_getWork has the reference fields; notify only on the first call for new work', async () => {
  await ready;
  const head = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
  const first: Work = await rpc(node.url, 'mnr_getWork');
  assert.match(first.blockHashForMergedMining, /^0x[0-9a-f]{64}$/);
  assert.is(first.target, `0x${'55'.repeat(32)}`);
  assert.is(first.feesPaidToMiner, '0');
  assert.is(first.parentBlockHash, head.hash);
  assert.is(first.notify, true);
  const again: Work = await rpc(node.url, 'mnr_getWork');
  assert.is(again.blockHashForMergedMining, first.blockHashForMergedMining);
  assert.is(again.notify, false);
});

Mnr('the external miner process mines with every submit method', async () => {
  for (const mode of ['block', 'transactions', 'partial-merkle']) {
    const before = await blockNumber();
    const miner = spawn(process.execPath, ['--import', 'tsx', 'src/minerClient/main.ts', '--rpc', node.url, '--submit', mode, '--blocks', '2', '--other-txs', '4'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    miner.stdout.on('data', (d) => { out += d; });
    miner.stderr.on('data', (d) => { out += d; });
    const code = await new Promise((r) => miner.on('exit', r));
    assert.is(code, 0, out);
    assert.is(await blockNumber(), before + 2, `${mode}: ${out}`);
    const block = await rpc(node.url, 'eth_getBlockByNumber', ['latest', false]);
    // 5 parent transactions: the coinbase needs a 3-level proof (3 × 32 bytes)
    assert.is((block.parentChainMergedMiningMerkleProof.length - 2) / 2, 96, mode);
    assert.match(out, /IMPORTED_BEST/);
  }
});

Mnr('a late solution to an older template still lands; its sibling becomes an uncle', async () => {
  const workA: Work = await rpc(node.url, 'mnr_getWork');
  await sendTransfer(); // new transactions make new work on the same parent
  const workB: Work = await rpc(node.url, 'mnr_getWork');
  assert.is.not(workB.blockHashForMergedMining, workA.blockHashForMergedMining);
  assert.is(workB.parentBlockHash, workA.parentBlockHash);

  const a = await rpc(node.url, 'mnr_submitBitcoinBlock', [hex(solvedBlock(workA).bytes)]);
  assert.is(ascii(a.blockImportedResult), 'IMPORTED_BEST');
  assert.is(a.blockImportedResult, '0x494d504f525445445f42455354');
  const b = await rpc(node.url, 'mnr_submitBitcoinBlock', [hex(solvedBlock(workB).bytes)]);
  // Equal total difficulty: the lower block hash is the head, the other the sibling.
  const bWins = BigInt(b.blockHash) < BigInt(a.blockHash);
  assert.is(ascii(b.blockImportedResult), bWins ? 'IMPORTED_BEST' : 'IMPORTED_NOT_BEST');
  assert.is(b.blockIncludedHeight, a.blockIncludedHeight);
  const sibling = bWins ? a : b;
  // the same solution again is known
  const again = await rpc(node.url, 'mnr_submitBitcoinBlock', [hex(solvedBlock(workB).bytes)]);
  assert.is(ascii(again.blockImportedResult), 'EXIST');

  const workC: Work = await rpc(node.url, 'mnr_getWork');
  const c = await rpc(node.url, 'mnr_submitBitcoinBlock', [hex(solvedBlock(workC).bytes)]);
  assert.is(ascii(c.blockImportedResult), 'IMPORTED_BEST');
  assert.is(await rpc(node.url, 'eth_getUncleCountByBlockHash', [c.blockHash]), '0x1');
  const uncle = await rpc(node.url, 'eth_getUncleByBlockHashAndIndex', [c.blockHash, '0x0']);
  assert.is(uncle.hash, sibling.blockHash);
  assert.not.ok('transactions' in uncle, 'an uncle is a header-only block object');
  assert.equal(await rpc(node.url, 'eth_getUncleByBlockNumberAndIndex', [c.blockIncludedHeight, '0x0']), uncle);
  const blockC = await rpc(node.url, 'eth_getBlockByHash', [c.blockHash, false]);
  assert.equal(blockC.uncles, [sibling.blockHash]);
  assert.is(BigInt(blockC.cumulativeDifficulty), 2n, 'own difficulty plus the uncle');
  const parentC = await rpc(node.url, 'eth_getBlockByHash', [blockC.parentHash, false]);
  assert.is(BigInt(blockC.totalDifficulty), BigInt(parentC.totalDifficulty) + 2n, 'the total counts the uncle too');
  // the transfer is mined exactly once on the canonical chain: in B if B won, else again in C
  assert.is(blockC.transactions.length, bWins ? 0 : 1);
});

Mnr('only the last 20 templates are kept', async () => {
  const first: Work = await rpc(node.url, 'mnr_getWork');
  for (let i = 0; i < 20; i++) {
    await sendTransfer();
    await rpc(node.url, 'mnr_getWork');
  }
  const err = await rpcError(node.url, 'mnr_submitBitcoinBlock', [hex(solvedBlock(first).bytes)]);
  assert.is(err.code, -33000);
  assert.is(err.message, `Cannot publish block, could not find hash ${first.blockHashForMergedMining} in the cache`);
  const latest: Work = await rpc(node.url, 'mnr_getWork');
  const ok = await rpc(node.url, 'mnr_submitBitcoinBlock', [hex(solvedBlock(latest).bytes)]);
  assert.is(ascii(ok.blockImportedResult), 'IMPORTED_BEST');
  assert.is((await rpc(node.url, 'eth_getBlockByHash', [ok.blockHash, false])).transactions.length, 20);
});

Mnr('bad submissions are refused with the reason, the chain is untouched and a retry works', async () => {
  const head = await rpc(node.url, 'eth_blockNumber');
  const work: Work = await rpc(node.url, 'mnr_getWork');
  const good = solvedBlock(work);
  // a header above the target
  const above = solvedBlock(work, (h) => h);
  const aboveHeader = (() => {
    for (let nonce = 0; ; nonce++) {
      const bytes = serializeParentHeader({ ...above.header, nonce });
      if (BigInt(`0x${hex(reverseBytes(sha256(sha256(bytes))))}`) > BigInt(work.target)) return bytes;
    }
  })();
  const e1 = await rpcError(node.url, 'mnr_submitBitcoinBlockTransactions', ['00', hex(aboveHeader), hex(good.coinbase), hex(reverseBytes(parentTxid(good.coinbase)))]);
  assert.is(e1.code, -33000);
  assert.match(e1.message, /Invalid block supplied by miner: .*target/);
  // a proof that does not lead to the header's Merkle root
  const e2 = await rpcError(node.url, 'mnr_submitBitcoinBlockTransactions', ['00', hex(good.header ? serializeParentHeader(good.header) : new Uint8Array()), hex(good.coinbase),
    `${hex(reverseBytes(parentTxid(good.coinbase)))} ${'11'.repeat(32)}`]);
  assert.is(e2.code, -33000);
  assert.match(e2.message, /merkle/i);
  // a coinbase without the tag
  const untagged = fromHex('01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff08044c86041b020602ffffffff0100f2052a010000004341041b0e8c2567c12536aa13357b79a073dc4444acb83c4ec7a0e2f99dd7457516c5817242da796924ca4e99947d087fedf9ce467cb9f7c6287078f801df276fdf84ac00000000');
  const e3 = await rpcError(node.url, 'mnr_submitBitcoinBlockTransactions', ['00', hex(serializeParentHeader(good.header)), hex(untagged), hex(reverseBytes(parentTxid(untagged)))]);
  assert.is(e3.code, -33000);
  // malformed hex and wrong lengths
  const e4 = await rpcError(node.url, 'mnr_submitBitcoinBlock', ['zz']);
  assert.is(e4.code, -32602);
  const e5 = await rpcError(node.url, 'mnr_submitBitcoinBlockTransactions', ['00', 'abcd', hex(good.coinbase), hex(reverseBytes(parentTxid(good.coinbase)))]);
  assert.is(e5.code, -32602);
  assert.match(e5.message, /80 bytes/);
  const e6 = await rpcError(node.url, 'mnr_submitBitcoinBlockPartialMerkle', ['00', hex(serializeParentHeader(good.header)), hex(good.coinbase), '', '1']);
  assert.is(e6.code, -33000);
  assert.is(e6.message, "The list of merkle hashes can't be empty");
  const e7 = await rpcError(node.url, 'mnr_submitBitcoinBlock', [hex(good.bytes).slice(0, 200)]);
  assert.is(e7.code, -32602);
  assert.is(await rpc(node.url, 'eth_blockNumber'), head);
  // the same miner retries with the good solution
  const ok = await rpc(node.url, 'mnr_submitBitcoinBlockPartialMerkle', ['00', hex(serializeParentHeader(good.header)), hex(good.coinbase), hex(parentTxid(good.coinbase)), '1']);
  assert.is(ascii(ok.blockImportedResult), 'IMPORTED_BEST');
});

Mnr('eth_getWork / eth_submitWork: the node builds the parent block, a nonce completes it', async () => {
  const before = await blockNumber();
  const [midstate, tail, boundary]: string[] = await rpc(node.url, 'eth_getWork');
  assert.is(boundary, `0x${'55'.repeat(32)}`);
  const tail12 = fromHex(tail).subarray(0, 12);
  let nonce = 0;
  for (; ; nonce++) {
    const last16 = new Uint8Array(16);
    last16.set(tail12);
    new DataView(last16.buffer).setUint32(12, nonce, true);
    const hash = sha256(sha256Resume(fromHex(midstate), 64n, last16));
    if (BigInt(`0x${hex(reverseBytes(hash))}`) <= BigInt(boundary)) break;
  }
  const wrong = await rpc(node.url, 'eth_submitWork', [`0x${'00'.repeat(8)}`, `0x${'12'.repeat(32)}`, `0x${'00'.repeat(32)}`]);
  assert.is(wrong, false, 'unknown work');
  assert.is(await rpc(node.url, 'eth_submitWork', [`0x${nonce.toString(16).padStart(16, '0')}`, midstate, `0x${'00'.repeat(32)}`]), true);
  assert.is(await blockNumber(), before + 1);
  const err = await rpcError(node.url, 'eth_submitWork', ['0x01', midstate, midstate]);
  assert.is(err.code, -32602);
});

Mnr('eth_submitHashrate feeds eth_hashrate and eth_mining', async () => {
  assert.is(await rpc(node.url, 'eth_mining'), false);
  const id = `0x${'ab'.repeat(32)}`;
  assert.is(await rpc(node.url, 'eth_submitHashrate', [`0x${(5000).toString(16).padStart(64, '0')}`, id]), true);
  assert.is(BigInt(await rpc(node.url, 'eth_hashrate')) >= 5000n, true);
  assert.is(await rpc(node.url, 'eth_mining'), true);
  assert.type(await rpc(node.url, 'eth_netHashrate'), 'number');
  assert.is(await rpc(node.url, 'eth_coinbase'), '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d');
  const { json } = await post(node.url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_submitHashrate', params: ['0x1'] }));
  assert.is(json.error.code, -32602);
});

Mnr.run();

/**
 * mnr_* through the dispatcher on a fake miner: the three submission forms hand the miner the same
 * solution for the same parent block, its answer comes back as SubmittedBlockInfo and its refusal as
 * -33000; undecodable submissions are -32602 naming the parameter and reach no miner. Mining with a
 * real node and its built-in checks: mnr.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { MinerProtocol, SubmitResult, Work } from '../../../src/actors/miner/index.ts';
import { NodeError } from '../../../src/errors.ts';
import {
  buildTaggedCoinbase, merkleRoot, parentTxid, parseParentTx, reverseBytes, serializeParentBlock, serializeParentHeader, type ParentSolution,
} from '../../../src/mergedmining/index.ts';
import { fakeRef, fakeRpc } from '../../helpers/fakeRpc.ts';

const Mnr = suite('mnr_* on a fake miner');
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

const WORK: Work = {
  blockHashForMergedMining: `0x${'ab'.repeat(32)}`, target: `0x${'55'.repeat(32)}`, feesPaidToMiner: '0', notify: true, parentBlockHash: `0x${'cd'.repeat(32)}`,
};
const ANSWER: SubmitResult = { result: 'IMPORTED_BEST', blockHash: `0x${'ef'.repeat(32)}`, number: 26n };

/** A two-transaction parent block: the tagged coinbase and another transaction. */
const coinbase = buildTaggedCoinbase(new Uint8Array(32).fill(0xab));
const other = buildTaggedCoinbase(new Uint8Array(32).fill(0x01));
const txids = [parentTxid(coinbase), parentTxid(other)];
const parentHeader = { version: 0x20000000, prevHash: new Uint8Array(32), merkleRoot: merkleRoot(txids), time: 1_700_000_000, bits: 0x207fffff, nonce: 7 };
const header = serializeParentHeader(parentHeader);
const block = serializeParentBlock({ header: parentHeader, txs: [parseParentTx(coinbase).tx, parseParentTx(other).tx] });

function harness(refuse?: string) {
  const miner = fakeRef<MinerProtocol>('miner', {
    'work.get': () => WORK,
    'work.submit': () => { if (refuse) throw new NodeError('MM_SUBMIT_REJECTED', refuse); return ANSWER; },
  });
  /** The solutions the miner was given, in hex. */
  const submitted = () => miner.asked.filter((a) => a.type === 'work.submit').map((a) => {
    const { header: h, coinbase: c, proof } = a.req as ParentSolution;
    return { header: hex(h), coinbase: hex(c), proof: hex(proof) };
  });
  return { rpc: fakeRpc({ miner }), miner, submitted };
}

Mnr('mnr_getWork is the miner\'s work as it gives it', async () => {
  assert.equal(await harness().rpc.result('mnr_getWork'), WORK);
});

Mnr('the three submission forms of one parent block give the miner one solution; the answer is SubmittedBlockInfo', async () => {
  const { rpc, submitted } = harness();
  const answers = [
    await rpc.result('mnr_submitBitcoinBlock', [hex(block)]),
    await rpc.result('mnr_submitBitcoinBlock', [`0x${hex(block)}`]),
    await rpc.result('mnr_submitBitcoinBlockTransactions', ['00', hex(header), hex(coinbase), txids.map((t) => hex(reverseBytes(t))).join(' ')]),
    await rpc.result('mnr_submitBitcoinBlockPartialMerkle', ['00', hex(header), hex(coinbase), txids.map(hex).join(' '), '2']),
  ];
  for (const answer of answers) {
    assert.equal(answer, { blockImportedResult: '0x494d504f525445445f42455354', blockHash: ANSWER.blockHash, blockIncludedHeight: '0x1a' });
  }
  const solution = { header: hex(header), coinbase: hex(coinbase), proof: hex(reverseBytes(txids[1]!)) };
  assert.equal(submitted(), [solution, solution, solution, solution], 'the proof of the coinbase is its sibling, in display order');
});

Mnr('a refused solution is -33000 with the miner\'s reason', async () => {
  const { rpc } = harness('Cannot publish block, could not find hash 0xab in the cache');
  const err = await rpc.error('mnr_submitBitcoinBlock', [hex(block)]);
  assert.equal(err, { code: -33000, message: 'Cannot publish block, could not find hash 0xab in the cache' });
});

Mnr('undecodable submissions are -32602 naming what is wrong, and reach no miner', async () => {
  const { rpc, submitted } = harness();
  const cases: [string, unknown[], string][] = [
    ['mnr_submitBitcoinBlock', ['zz'], 'invalid argument 0 (bitcoinBlockHex): expected hex bytes'],
    ['mnr_submitBitcoinBlock', ['abc'], '0 (bitcoinBlockHex)'],
    ['mnr_submitBitcoinBlock', [hex(block).slice(0, 200)], 'invalid parent-chain block: '],
    ['mnr_submitBitcoinBlock', [], '0 (bitcoinBlockHex)'],
    ['mnr_submitBitcoinBlockTransactions', ['00', 'abcd', hex(coinbase), hex(txids[0]!)], 'invalid submission: parent header must be 80 bytes, got 2'],
    ['mnr_submitBitcoinBlockTransactions', ['00', hex(header), hex(coinbase), `${hex(txids[0]!)} 1234`], 'invalid argument 3 (txnHashesHex)[1]: expected a 32-byte hash, got 2 bytes'],
    ['mnr_submitBitcoinBlockTransactions', ['00', hex(header), 'xyz', hex(txids[0]!)], '2 (coinbaseHex)'],
    ['mnr_submitBitcoinBlockPartialMerkle', ['00', hex(header), hex(coinbase), hex(txids[0]!), 'xyz'], 'invalid argument 4 (blockTxnCountHex): expected a hex transaction count'],
    ['mnr_submitBitcoinBlockPartialMerkle', ['00', hex(header), hex(coinbase), 'beef', '1'], 'invalid argument 3 (merkleHashesHex)[0]: expected a 32-byte hash'],
  ];
  for (const [method, params, message] of cases) {
    const err = await rpc.error(method, params);
    assert.is(err.code, -32602, `${method} ${message}: ${err.code} ${err.message}`);
    assert.match(err.message, message);
  }
  const empty = await rpc.error('mnr_submitBitcoinBlockPartialMerkle', ['00', hex(header), hex(coinbase), '', '1']);
  assert.equal(empty, { code: -33000, message: "The list of merkle hashes can't be empty" });
  assert.equal(submitted(), []);
});

Mnr('the transaction count may be hex text or a JSON number, as the reference takes it', async () => {
  const { rpc, submitted } = harness();
  for (const count of ['2', '0x2', 10]) await rpc.result('mnr_submitBitcoinBlockPartialMerkle', ['00', hex(header), hex(coinbase), txids.map(hex).join(' '), count]);
  assert.is(submitted().length, 3);
});

Mnr.run();

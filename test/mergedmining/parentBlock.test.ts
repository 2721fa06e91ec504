import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import {
  merkleRoot,
  parentTxid,
  parseParentBlock,
  parseParentHeader,
  parseParentTx,
  serializeParentBlock,
  serializeParentTx,
  type ParentBlock,
} from '../../src/mergedmining/index.js';
import { B100000_COINBASE, B100000_HEADER, hex } from './vectors.js';

const ParentBlockSuite = suite('parentBlock');

/** Block-100000 header and coinbase, plus a segwit tx, so one transaction is in witness form. */
function sampleBlock(): ParentBlock {
  const coinbase = parseParentTx(hex(B100000_COINBASE)).tx;
  const segwit = {
    version: 2,
    inputs: [{ prevTxid: new Uint8Array(32).fill(9), prevIndex: 0, script: new Uint8Array(0), sequence: 0xffffffff, witness: [Uint8Array.of(1, 2, 3)] }],
    outputs: [{ value: 1000n, script: Uint8Array.of(0x51) }],
    locktime: 0,
  };
  return { header: parseParentHeader(hex(B100000_HEADER)), txs: [coinbase, segwit] };
}

ParentBlockSuite('round trip: header, count, transactions in witness form', () => {
  const block = sampleBlock();
  const bytes = serializeParentBlock(block);
  assert.is(bytes[80], 2);
  assert.is(bytesToHex(bytes.subarray(81, 81 + 135)), `0x${B100000_COINBASE}`);
  assert.is(bytesToHex(bytes.subarray(81 + 135 + 4, 81 + 135 + 6)), '0x0001');
  const parsed = parseParentBlock(bytes);
  assert.equal(parsed, block);
  assert.is(bytesToHex(serializeParentTx(parsed.txs[1], { witness: true })), bytesToHex(bytes.subarray(81 + 135)));
});

ParentBlockSuite('the txids of a parsed block give its Merkle root', () => {
  const block = sampleBlock();
  const root = merkleRoot(block.txs.map(parentTxid));
  const bytes = serializeParentBlock({ ...block, header: { ...block.header, merkleRoot: root } });
  const parsed = parseParentBlock(bytes);
  assert.is(bytesToHex(merkleRoot(parsed.txs.map(parentTxid))), bytesToHex(parsed.header.merkleRoot));
});

ParentBlockSuite('truncation anywhere, trailing bytes and an empty block are errors', () => {
  const bytes = serializeParentBlock(sampleBlock());
  for (let cut = 0; cut < bytes.length; cut++) {
    assert.throws(() => parseParentBlock(bytes.subarray(0, cut)), /truncated|exceeds/, `cut at ${cut}`);
  }
  assert.throws(() => parseParentBlock(concatBytes(bytes, Uint8Array.of(0))), /1 trailing bytes/);
  assert.throws(() => parseParentBlock(concatBytes(hex(B100000_HEADER), Uint8Array.of(0))), /no transactions/);
});

ParentBlockSuite.run();

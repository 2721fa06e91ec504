import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { buildTaggedCoinbase, lastIndexOf, MM_TAG, parseParentTx } from '../../src/mergedmining/index.js';

const Coinbase = suite('coinbase');

const hash = new Uint8Array(32).map((_, i) => i + 1);

Coinbase('the tag is ASCII RSKBLOCK:', () => {
  assert.is(bytesToHex(MM_TAG), '0x52534b424c4f434b3a');
});

Coinbase('a standard coinbase: version 1, null outpoint, payout then OP_RETURN tag output, locktime 0', () => {
  const bytes = buildTaggedCoinbase(hash);
  const { tx, size } = parseParentTx(bytes);
  assert.is(size, bytes.length);
  assert.is(tx.version, 1);
  assert.is(tx.inputs.length, 1);
  assert.is(bytesToHex(tx.inputs[0].prevTxid), `0x${'00'.repeat(32)}`);
  assert.is(tx.inputs[0].prevIndex, 0xffffffff);
  assert.ok(tx.inputs[0].script.length >= 2 && tx.inputs[0].script.length <= 100);
  assert.is(tx.outputs.length, 2);
  assert.is(bytesToHex(tx.outputs[1].script), bytesToHex(concatBytes(Uint8Array.of(0x6a, 41), MM_TAG, hash)));
  assert.is(tx.locktime, 0);
  // Only the locktime follows the hash.
  assert.is(lastIndexOf(bytes, MM_TAG), bytes.length - 4 - 32 - 9);
});

Coinbase('options: scriptSig, prefix before the tag, extra outputs before the tag output', () => {
  const extra = { value: 7n, script: Uint8Array.of(0x00, 0x14, ...new Uint8Array(20)) };
  const prefix = new Uint8Array(100).fill(0xcc);
  const { tx } = parseParentTx(buildTaggedCoinbase(hash, { scriptSig: Uint8Array.of(0x03, 0x01, 0x02, 0x03), prefixBytes: prefix, extraOutputs: [extra] }));
  assert.is(bytesToHex(tx.inputs[0].script), '0x03010203');
  assert.equal(tx.outputs[1], extra);
  // 141 payload bytes need OP_PUSHDATA1.
  assert.is(bytesToHex(tx.outputs[2].script), bytesToHex(concatBytes(Uint8Array.of(0x6a, 0x4c, 141), prefix, MM_TAG, hash)));
});

Coinbase('refuses a hash that is not 32 bytes', () => {
  assert.throws(() => buildTaggedCoinbase(new Uint8Array(20)), /32 bytes/);
});

Coinbase.run();

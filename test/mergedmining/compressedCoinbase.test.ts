import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '@ethereumjs/util';
import {
  buildTaggedCoinbase,
  coinbaseTxidFromCompressed,
  compressCoinbase,
  findTaggedHash,
  lastIndexOf,
  MM_TAG,
  parentTxid,
  parseParentHeader,
  reverseBytes,
  splitCompressedCoinbase,
} from '../../src/mergedmining/index.js';
import {
  B100000_COINBASE,
  decodeRegtestHeader,
  hex,
  R733_COINBASE_TXID_DISPLAY,
  R733_RLP,
  R734_COINBASE_TXID_DISPLAY,
  R734_RLP,
  T436_COINBASE,
  T436_COINBASE_TXID_DISPLAY,
  T436_HASH_FOR_MM,
} from './vectors.js';

const Compressed = suite('compressedCoinbase');

const display = (raw: Uint8Array) => bytesToHex(reverseBytes(raw));

/** Where the tag sits in a compressed coinbase and how many bytes follow its hash. */
function layout(compressed: Uint8Array) {
  const { hashedBytes, tail } = splitCompressedCoinbase(compressed);
  const tagAt = lastIndexOf(tail, MM_TAG);
  return { hashedBytes, tailBytes: tail.length, tagAt, afterHash: tail.length - tagAt - 41 };
}

Compressed('testnet block 436: 128 bytes hashed, 233 in all, tag at tail offset 60, 4 bytes after the hash', () => {
  const compressed = hex(T436_COINBASE);
  // The reference's notes on this block say "tail = 193", but the 145-byte value has a 105-byte tail (128 + 105 = 233).
  assert.equal(layout(compressed), { hashedBytes: 128n, tailBytes: 105, tagAt: 60, afterHash: 4 });
  assert.is(display(coinbaseTxidFromCompressed(compressed)), `0x${T436_COINBASE_TXID_DISPLAY}`);
  assert.is(bytesToHex(findTaggedHash(compressed)), `0x${T436_HASH_FOR_MM}`);
});

Compressed('regtest blocks 733/734: txids equal their headers\' Merkle roots; tag at 47/22, 53 bytes after', () => {
  const cases = [
    { rlp: R733_RLP, txid: R733_COINBASE_TXID_DISPLAY, hashedBytes: 320n, tagAt: 47 },
    { rlp: R734_RLP, txid: R734_COINBASE_TXID_DISPLAY, hashedBytes: 896n, tagAt: 22 },
  ];
  for (const c of cases) {
    const { header, coinbase } = decodeRegtestHeader(c.rlp);
    const txid = coinbaseTxidFromCompressed(coinbase);
    assert.is(display(txid), `0x${c.txid}`);
    assert.is(bytesToHex(txid), bytesToHex(parseParentHeader(header).merkleRoot));
    const l = layout(coinbase);
    assert.is(l.hashedBytes, c.hashedBytes);
    assert.is(l.tagAt, c.tagAt);
    assert.is(l.afterHash, 53);
  }
});

Compressed('compress then recover the txid, for tags at every offset within and across 64-byte blocks', () => {
  const hash = new Uint8Array(32).fill(0x42);
  for (let prefix = 0; prefix <= 260; prefix++) {
    const full = buildTaggedCoinbase(hash, { prefixBytes: new Uint8Array(prefix).fill(0x99) });
    const compressed = compressCoinbase(full);
    const tagAtFull = lastIndexOf(full, MM_TAG);
    const { hashedBytes, tagAt } = layout(compressed);
    assert.is(hashedBytes, BigInt(tagAtFull - (tagAtFull % 64)), `prefix ${prefix}`);
    assert.ok(tagAt >= 0 && tagAt < 64);
    assert.is(compressed.length, 40 + full.length - Number(hashedBytes));
    assert.is(bytesToHex(coinbaseTxidFromCompressed(compressed)), bytesToHex(parentTxid(full)), `prefix ${prefix}`);
    assert.is(bytesToHex(findTaggedHash(compressed)), bytesToHex(hash));
  }
});

Compressed('compression splits at the last tag', () => {
  const first = new Uint8Array(32).fill(1);
  const last = new Uint8Array(32).fill(2);
  const prefix = new Uint8Array([...new Uint8Array(90), ...MM_TAG, ...first]);
  const compressed = compressCoinbase(buildTaggedCoinbase(last, { prefixBytes: prefix }));
  assert.is(bytesToHex(findTaggedHash(compressed)), bytesToHex(last));
});

Compressed('errors: no tag to split at, byte count not a multiple of 64, fewer than 40 bytes', () => {
  assert.throws(() => compressCoinbase(hex(B100000_COINBASE)), /tag not found/);
  const badCount = hex(T436_COINBASE);
  badCount[7] = 0x81;
  assert.throws(() => coinbaseTxidFromCompressed(badCount), /multiple of 64/);
  assert.throws(() => coinbaseTxidFromCompressed(new Uint8Array(39)), /at least 40 bytes/);
});

Compressed.run();

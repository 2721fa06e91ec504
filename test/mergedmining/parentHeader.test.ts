import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex } from '@ethereumjs/util';
import { parentHeaderHash, parseParentHeader, reverseBytes, serializeParentHeader } from '../../src/mergedmining/index.js';
import { B100000_HASH_DISPLAY, B100000_HEADER, B100000_MERKLE_ROOT_DISPLAY, B100000_PREV_DISPLAY, hex } from './vectors.js';

const ParentHeaderSuite = suite('parentHeader');

ParentHeaderSuite('parses Bitcoin block 100000 into its fields (hashes raw order)', () => {
  const header = parseParentHeader(hex(B100000_HEADER));
  assert.is(header.version, 1);
  assert.is(bytesToHex(reverseBytes(header.prevHash)), `0x${B100000_PREV_DISPLAY}`);
  assert.is(bytesToHex(reverseBytes(header.merkleRoot)), `0x${B100000_MERKLE_ROOT_DISPLAY}`);
  assert.is(header.time, 1293623863);
  assert.is(header.bits, 0x1b04864c);
  assert.is(header.nonce, 274148111);
});

ParentHeaderSuite('serialize is the inverse of parse', () => {
  const bytes = hex(B100000_HEADER);
  assert.is(bytesToHex(serializeParentHeader(parseParentHeader(bytes))), bytesToHex(bytes));
});

ParentHeaderSuite('hash of block 100000, reversed for display', () => {
  assert.is(bytesToHex(reverseBytes(parentHeaderHash(hex(B100000_HEADER)))), `0x${B100000_HASH_DISPLAY}`);
});

ParentHeaderSuite('anything but exactly 80 bytes is refused', () => {
  const bytes = hex(B100000_HEADER);
  assert.throws(() => parseParentHeader(bytes.subarray(0, 79)), /80 bytes/);
  assert.throws(() => parseParentHeader(new Uint8Array(81)), /80 bytes/);
  assert.throws(() => parentHeaderHash(new Uint8Array(81)), /80 bytes/);
  assert.throws(() => serializeParentHeader({ ...parseParentHeader(bytes), prevHash: new Uint8Array(31) }), /32 bytes/);
});

ParentHeaderSuite.run();

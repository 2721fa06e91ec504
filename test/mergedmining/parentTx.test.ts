import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import {
  dsha256,
  hasWitness,
  parentTxid,
  parseParentTx,
  reverseBytes,
  serializeParentTx,
  type ParentTx,
} from '../../src/mergedmining/index.js';
import { B100000_COINBASE, B100000_TXIDS_DISPLAY, hex } from './vectors.js';

const ParentTxSuite = suite('parentTx');

const fill = (n: number, byte: number) => new Uint8Array(n).fill(byte);

/** A two-input segwit spend: input 0 has a P2WPKH-style witness, input 1 none. */
const segwitTx = (): ParentTx => ({
  version: 2,
  inputs: [
    { prevTxid: fill(32, 0x11), prevIndex: 1, script: new Uint8Array(0), sequence: 0xfffffffd, witness: [fill(71, 0x30), fill(33, 0x02)] },
    { prevTxid: fill(32, 0x22), prevIndex: 0, script: fill(23, 0x16), sequence: 0xffffffff, witness: [] },
  ],
  outputs: [
    { value: 150_000n, script: concatBytes(Uint8Array.of(0x00, 0x14), fill(20, 0xab)) },
    { value: 2_100_000_000_000_000n, script: Uint8Array.of(0x51) },
  ],
  locktime: 500_000,
});

ParentTxSuite('parses the block-100000 coinbase: null outpoint, one 50 BTC output', () => {
  const bytes = hex(B100000_COINBASE);
  const { tx, size } = parseParentTx(bytes);
  assert.is(size, 135);
  assert.is(tx.version, 1);
  assert.is(tx.inputs.length, 1);
  assert.is(bytesToHex(tx.inputs[0].prevTxid), `0x${'00'.repeat(32)}`);
  assert.is(tx.inputs[0].prevIndex, 0xffffffff);
  assert.is(bytesToHex(tx.inputs[0].script), '0x044c86041b020602');
  assert.is(tx.outputs.length, 1);
  assert.is(tx.outputs[0].value, 5_000_000_000n);
  assert.is(tx.outputs[0].script.length, 67);
  assert.is(tx.locktime, 0);
  assert.not.ok(hasWitness(tx));
  assert.is(bytesToHex(serializeParentTx(tx, { witness: true })), bytesToHex(bytes));
  assert.is(bytesToHex(reverseBytes(parentTxid(bytes))), `0x${B100000_TXIDS_DISPLAY[0]}`);
});

ParentTxSuite('segwit round trip: marker and flag after the version, witness before the locktime', () => {
  const tx = segwitTx();
  const withWitness = serializeParentTx(tx, { witness: true });
  const legacy = serializeParentTx(tx, { witness: false });
  assert.is(bytesToHex(withWitness.subarray(4, 6)), '0x0001');
  assert.is(withWitness.length, legacy.length + 2 + (1 + 1 + 71 + 1 + 33) + 1);
  const parsed = parseParentTx(withWitness);
  assert.is(parsed.size, withWitness.length);
  assert.equal(parsed.tx, tx);
  assert.equal(parseParentTx(legacy).tx, { ...tx, inputs: tx.inputs.map((i) => ({ ...i, witness: [] })) });
});

ParentTxSuite('txid hashes the non-witness form, whichever form it is given', () => {
  const tx = segwitTx();
  const withWitness = serializeParentTx(tx, { witness: true });
  const legacy = serializeParentTx(tx, { witness: false });
  const txid = bytesToHex(parentTxid(tx));
  assert.is(txid, bytesToHex(dsha256(legacy)));
  assert.is(bytesToHex(parentTxid(withWitness)), txid);
  assert.is.not(bytesToHex(dsha256(withWitness)), txid);
});

ParentTxSuite('parses at an offset and reports the size it used', () => {
  const tx = serializeParentTx(segwitTx(), { witness: true });
  const bytes = concatBytes(Uint8Array.of(0xee, 0xee, 0xee), tx, Uint8Array.of(0xff));
  const { size } = parseParentTx(bytes, 3);
  assert.is(size, tx.length);
  assert.throws(() => parentTxid(bytes.subarray(3)), /1 trailing bytes/);
});

ParentTxSuite('every truncation throws a truncation error', () => {
  const bytes = serializeParentTx(segwitTx(), { witness: true });
  for (let cut = 0; cut < bytes.length; cut++) {
    assert.throws(() => parseParentTx(bytes.subarray(0, cut)), /truncated|exceeds/, `cut at ${cut}`);
  }
});

ParentTxSuite('rejects a bad segwit flag, a marker without witness data and non-canonical varints', () => {
  const bytes = serializeParentTx(segwitTx(), { witness: true });
  const badFlag = bytes.slice();
  badFlag[5] = 0x02;
  assert.throws(() => parseParentTx(badFlag), /segwit flag/);

  const noWitness = segwitTx();
  noWitness.inputs.forEach((i) => (i.witness = []));
  const legacy = serializeParentTx(noWitness, { witness: false });
  // Hand-made marker form whose witness stacks are both empty.
  const superfluous = concatBytes(legacy.subarray(0, 4), Uint8Array.of(0, 1), legacy.subarray(4, -4), Uint8Array.of(0, 0), legacy.subarray(-4));
  assert.throws(() => parseParentTx(superfluous), /without witness data/);

  // Input count 2 written as fd 02 00 instead of 02.
  const nonCanonical = concatBytes(legacy.subarray(0, 4), Uint8Array.of(0xfd, 0x02, 0x00), legacy.subarray(5));
  assert.throws(() => parseParentTx(nonCanonical), /non-canonical/);
});

ParentTxSuite.run();

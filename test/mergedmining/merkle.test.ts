import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import {
  dsha256,
  foldRskip92Proof,
  isAmbiguousNodePair,
  merkleBranch,
  merkleRoot,
  parseParentTx,
  reverseBytes,
  rskip92Proof,
  rskip92ProofFromBranch,
  serializeParentTx,
} from '../../src/mergedmining/index.js';
import { B100000_MERKLE_ROOT_DISPLAY, B100000_RSKIP92_PROOF_DISPLAY, B100000_TXIDS_DISPLAY, rawFromDisplay } from './vectors.js';

const Merkle = suite('merkle');

const txids100000 = () => B100000_TXIDS_DISPLAY.map(rawFromDisplay);
const display = (raw: Uint8Array) => bytesToHex(reverseBytes(raw));
const random32 = () => new Uint8Array(randomBytes(32));

/** A real 64-byte transaction: one input, one 1000-sat output, scripts of 2 + 2 bytes. */
function sixtyFourByteTx(prevIndex: number, value: bigint): Uint8Array {
  return serializeParentTx(
    {
      version: 1,
      inputs: [{ prevTxid: new Uint8Array(32).fill(0x5a), prevIndex, script: Uint8Array.of(0x51, 0x51), sequence: 0xffffffff, witness: [] }],
      outputs: [{ value, script: Uint8Array.of(0x51, 0x87) }],
      locktime: 0,
    },
    { witness: false },
  );
}

Merkle('root of Bitcoin block 100000 from its four txids', () => {
  assert.is(display(merkleRoot(txids100000())), `0x${B100000_MERKLE_ROOT_DISPLAY}`);
});

Merkle('odd levels pair the last node with itself; one tx is its own root', () => {
  const [a, b, c] = [random32(), random32(), random32()];
  const expected = dsha256(concatBytes(dsha256(concatBytes(a, b)), dsha256(concatBytes(c, c))));
  assert.is(bytesToHex(merkleRoot([a, b, c])), bytesToHex(expected));
  assert.is(bytesToHex(merkleRoot([a])), bytesToHex(a));
  assert.is(rskip92Proof([a]).length, 0);
  assert.throws(() => merkleRoot([]), /empty/);
});

Merkle('RSKIP92 proof of the block-100000 coinbase is the two display-order siblings', () => {
  const proof = rskip92Proof(txids100000());
  assert.is(bytesToHex(proof), `0x${B100000_RSKIP92_PROOF_DISPLAY.join('')}`);
  assert.is(bytesToHex(rskip92ProofFromBranch(merkleBranch(txids100000()))), bytesToHex(proof));
  assert.is(display(foldRskip92Proof(txids100000()[0], proof)), `0x${B100000_MERKLE_ROOT_DISPLAY}`);
});

Merkle('proofs for every leaf of odd and even trees fold back to the root', () => {
  for (const n of [2, 3, 5, 7, 8, 13]) {
    const txids = Array.from({ length: n }, random32);
    const root = bytesToHex(merkleRoot(txids));
    for (let i = 0; i < n; i++) {
      assert.is(bytesToHex(foldRskip92Proof(txids[i], rskip92Proof(txids, i), i)), root, `${n} txs, leaf ${i}`);
    }
  }
});

Merkle('a sibling in raw order instead of display order does not lead to the root', () => {
  const rawOrder = concatBytes(...merkleBranch(txids100000()));
  assert.is.not(bytesToHex(foldRskip92Proof(txids100000()[0], rawOrder)), bytesToHex(merkleRoot(txids100000())));
});

Merkle('proof length must be a multiple of 32 and at most 960 bytes', () => {
  const txid = random32();
  assert.throws(() => foldRskip92Proof(txid, new Uint8Array(33)), /multiple of 32/);
  assert.throws(() => foldRskip92Proof(txid, new Uint8Array(randomBytes(992))), /960/);
  assert.is(foldRskip92Proof(txid, new Uint8Array(randomBytes(960))).length, 32);
});

Merkle('a node pair that is a 64-byte transaction is refused', () => {
  const tx = sixtyFourByteTx(0, 1000n);
  assert.is(tx.length, 64);
  assert.is(parseParentTx(tx).size, 64);
  assert.ok(isAmbiguousNodePair(tx));
  // Left node = first half (raw), the proof stores the right half in display order.
  assert.throws(() => foldRskip92Proof(tx.subarray(0, 32), reverseBytes(tx.subarray(32))), /64-byte transaction/);
});

Merkle('the 64-byte rule follows the stated value, index and script bounds', () => {
  assert.ok(isAmbiguousNodePair(sixtyFourByteTx(1_000_000, 1n)));
  assert.ok(isAmbiguousNodePair(sixtyFourByteTx(0xffffffff, 2_100_000_000_000_000n)));
  assert.not.ok(isAmbiguousNodePair(sixtyFourByteTx(1_000_001, 1000n)));
  assert.not.ok(isAmbiguousNodePair(sixtyFourByteTx(0, 0n)));
  assert.not.ok(isAmbiguousNodePair(sixtyFourByteTx(0, 2_100_000_000_000_001n)));
  const twoInputs = sixtyFourByteTx(0, 1000n);
  twoInputs[4] = 2;
  assert.not.ok(isAmbiguousNodePair(twoInputs));
  const longScript = sixtyFourByteTx(0, 1000n);
  longScript[41] = 3;
  assert.not.ok(isAmbiguousNodePair(longScript));
});

Merkle.run();

import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, concatBytes } from '@ethereumjs/util';
import { SHA256_IV, sha256Midstate, sha256Resume } from '../../src/mergedmining/index.js';

const Midstate = suite('sha256Midstate');

Midstate('resuming from the IV equals noble sha256 for every length around the padding edges', () => {
  for (let len = 0; len <= 200; len++) {
    const data = new Uint8Array(randomBytes(len));
    assert.is(bytesToHex(sha256Resume(SHA256_IV, 0n, data)), bytesToHex(sha256(data)), `length ${len}`);
  }
});

Midstate('midstate of a 64-byte-aligned prefix, resumed over the rest, equals noble sha256 of the whole', () => {
  for (let round = 0; round < 100; round++) {
    const prefix = new Uint8Array(randomBytes(64 * (round % 6)));
    const tail = new Uint8Array(randomBytes((round * 37) % 300));
    const resumed = sha256Resume(sha256Midstate(prefix), BigInt(prefix.length), tail);
    assert.is(bytesToHex(resumed), bytesToHex(sha256(concatBytes(prefix, tail))), `round ${round}`);
  }
});

Midstate('the midstate of nothing is the SHA-256 initial value', () => {
  assert.is(bytesToHex(sha256Midstate(new Uint8Array(0))), bytesToHex(SHA256_IV));
  assert.is(bytesToHex(SHA256_IV), '0x6a09e667bb67ae853c6ef372a54ff53a510e527f9b05688c1f83d9ab5be0cd19');
});

Midstate('the hashed byte count enters the length padding', () => {
  const prefix = new Uint8Array(randomBytes(128));
  const tail = new Uint8Array(randomBytes(10));
  const state = sha256Midstate(prefix);
  assert.is.not(bytesToHex(sha256Resume(state, 64n, tail)), bytesToHex(sha256(concatBytes(prefix, tail))));
});

Midstate('rejects unaligned prefixes, unaligned counts and states that are not 32 bytes', () => {
  assert.throws(() => sha256Midstate(new Uint8Array(63)), /multiple of 64/);
  assert.throws(() => sha256Resume(SHA256_IV, 65n, new Uint8Array(1)), /multiple of 64/);
  assert.throws(() => sha256Resume(new Uint8Array(31), 0n, new Uint8Array(1)), /32 bytes/);
});

Midstate.run();

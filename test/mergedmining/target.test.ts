import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { meetsTarget, parentHeaderHashValue, targetFromDifficulty, targetToHex } from '../../src/mergedmining/index.js';
import { hex, T436_HEADER, T436_HEADER_HASH_DISPLAY } from './vectors.js';

const Target = suite('target');

Target('difficulties 1, 2 and 3 all give 0x5555…55', () => {
  const regtest = `0x${'55'.repeat(32)}`;
  for (const d of [1n, 2n, 3n]) assert.is(targetToHex(targetFromDifficulty(d)), regtest, `difficulty ${d}`);
  assert.is(targetFromDifficulty(0n), targetFromDifficulty(3n));
});

Target('floor(2^256 / difficulty) above 3', () => {
  assert.is(targetFromDifficulty(4n), 1n << 254n);
  assert.is(targetFromDifficulty(0x1aa2b738n), (1n << 256n) / 0x1aa2b738n);
  assert.is(targetToHex(targetFromDifficulty(1n << 255n)), `0x${'0'.repeat(63)}2`);
});

Target('targetToHex pads to 64 digits and refuses values outside 256 bits', () => {
  assert.is(targetToHex(0xabn), `0x${'0'.repeat(62)}ab`);
  assert.throws(() => targetToHex(1n << 256n), /256-bit/);
  assert.throws(() => targetToHex(-1n), /256-bit/);
});

Target('the header hash is read reversed, big-endian; equality meets the target', () => {
  const header = hex(T436_HEADER);
  const value = parentHeaderHashValue(header);
  assert.is(value, BigInt(`0x${T436_HEADER_HASH_DISPLAY}`));
  assert.ok(meetsTarget(header, value));
  assert.not.ok(meetsTarget(header, value - 1n));
  assert.ok(meetsTarget(header, targetFromDifficulty(0x1aa2b738n)));
});

Target.run();

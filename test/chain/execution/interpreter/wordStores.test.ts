/**
 * MSTORE without the library's padding (src/chain/execution/interpreter/wordStores.ts): programs storing words of
 * every size (zero, one byte, 2^64, 2^128-1, 2^255, all ones) at aligned and unaligned offsets return the
 * same memory, gas and errors from an EVM made before the change and from one made after it.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EVM } from '@ethereumjs/evm';
import { storeWordsUnpadded } from '../../../../src/chain/execution/interpreter/wordStores.ts';
import { newEvm, runPrograms } from '../../../helpers/opcodeSwaps.ts';

const Words = suite('MSTORE without padding');

/** Stores `push` (a PUSHn and its bytes) at `offset` over a word of ones at 0x20, then returns 0x80 bytes from 0. */
const storing = (push: string, offset: number) =>
  `0x7f${'ff'.repeat(32)}602052${push}60${offset.toString(16).padStart(2, '0')}5260806000f3`;

const PROGRAMS: Record<string, string> = {
  zero: storing('6000', 0x20),
  oneByte: storing('6007', 0x05),
  twoTo64: storing('68010000000000000000', 0x21),
  twoTo128Less1: storing(`6f${'ff'.repeat(16)}`, 0x1f),
  twoTo255: storing(`7f80${'00'.repeat(31)}`, 0x40),
  allOnes: storing(`7f${'ff'.repeat(32)}`, 0x00),
  // Memory grows past the first words: offset 0x60 ends at 0x80, returned whole.
  grows: storing('602a', 0x60),
  outOfGas: '0x600163ffffffff52',
  underflow: '0x600152',
};

const runAll = (evm: EVM) => runPrograms(evm, PROGRAMS, 100_000n);

Words('every program ends the same with the library\'s MSTORE and without its padding', async () => {
  const library = await newEvm();
  storeWordsUnpadded();
  const unpadded = await newEvm();
  const before = await runAll(library);
  const after = await runAll(unpadded);
  assert.equal(after, before);
  assert.is((unpadded as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap[0x52]!.opHandler
    === (library as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap[0x52]!.opHandler, false);
  // The programs do what their names say.
  assert.is(before.oneByte!.returnValue.slice(2, 2 + 2 * 0x25), `${'00'.repeat(0x24)}07`);
  assert.is(before.allOnes!.returnValue, `0x${'ff'.repeat(64)}${'00'.repeat(64)}`);
  assert.is(before.outOfGas!.error, 'out of gas');
  assert.is(before.underflow!.error, 'stack underflow');
});

Words.run();

/**
 * MLOAD, MSTORE, KECCAK256 and RETURN gas answered at once (src/chain/execution/interpreter/memoryGas.ts): programs
 * growing the memory through each (by a word, by many, not at all, by a zero length far out, to the
 * quadratic part of the cost), hashing ranges of every word count, running out of gas in the expansion
 * and underflowing the stack end with the same return value, gas and error in an EVM made before the
 * change, in one made after it, and in one running opcodes in bursts (stepBursts.ts).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EVM } from '@ethereumjs/evm';
import { chargeMemoryAtOnce } from '../../../../src/chain/execution/interpreter/memoryGas.ts';
import { runPrograms, sameAfterSwap } from '../../../helpers/opcodeSwaps.ts';

const Memory = suite('memory gas at once');

/** `parts` (each leaving the stack as it found it) run in turn, GAS pushed after each; the GAS words are then stored from 0x4000 and returned. */
const measured = (parts: readonly string[]) =>
  `0x5a${parts.map((p) => `${p}5a`).join('')}${Array.from({ length: parts.length + 1 }, (_, i) => `61${(0x4000 + (parts.length - i) * 32).toString(16)}52`).join('')}61${((parts.length + 1) * 32).toString(16).padStart(4, '0')}614000f3`;

const PROGRAMS: Record<string, string> = {
  // MLOAD at 0 (one word), 0 again (no growth), 0x3f (two words), 0x400 (many), then MSTORE at 0x1000 (the quadratic part shows).
  growth: measured(['60005150', '60005150', '603f5150', '6104005150', '602a61100052']),
  // KECCAK256 of 0, 1, 32, 33 and 100 bytes, and of 0 bytes far out (no growth).
  keccak: measured(['600060002050', '600160002050', '602060002050', '602160002050', '606460102050', '600063ffffffff2050']),
  // RETURN of 0 bytes far out, after MSTORE: nothing grows.
  returnEmpty: `0x602a60005260006a${'ff'.repeat(11)}f3`,
  // RETURN past the memory: it grows (zeros returned).
  returnGrows: '0x602a60005260406010f3',
  mloadOutOfGas: '0x63ffffffff51',
  mstoreOutOfGas: '0x600163ffffffff52',
  keccakOutOfGas: '0x63ffffff00600020',
  returnOutOfGas: '0x63ffffff006000f3',
  mloadUnderflow: '0x51',
  mstoreUnderflow: '0x600152',
  keccakUnderflow: '0x600120',
  returnUnderflow: '0x6001f3',
};

const runAll = (evm: EVM) => runPrograms(evm, PROGRAMS, 1_000_000n);

const gasHandler = (evm: EVM, op: number) => (evm as unknown as { _opcodeMap: { gasHandler?: unknown }[] })._opcodeMap[op]!.gasHandler;

Memory('every program ends the same with the library\'s gas handlers, with the node\'s, and with the node\'s in bursts', async () => {
  const { library, swapped, before } = await sameAfterSwap(runAll, chargeMemoryAtOnce);
  for (const op of [0x20, 0x51, 0x52, 0xf3]) assert.is.not(gasHandler(swapped, op), gasHandler(library, op));
  // The programs do what their names say: each step's cost, from the GAS words.
  const costs = (name: string) => {
    const left = before[name]!.returnValue.slice(2).match(/.{64}/g)!.map((w) => BigInt(`0x${w}`));
    return left.slice(1).map((l, i) => left[i]! - l);
  };
  // 10 for the opcodes (PUSH, MLOAD, POP, GAS) and the memory: 3 for a word; none at 0 again; 3 words (0x3f): + 6;
  // 33 (0x400): 99 + 33²/512 = 101, + 92; an MSTORE (11 with its two PUSHes) to 129 words: 387 + 32, + 318.
  assert.equal(costs('growth'), [13n, 10n, 16n, 102n, 329n]);
  // 40 for the opcodes (two PUSHes, KECCAK256, POP, GAS), + 6 a word hashed, + 3 a word the memory grows: 0 bytes; 1 (a word
  // grown); 32; 33 (another word grown); 100 from 0x10 (four words, memory to four); 0 bytes far out (nothing grows).
  assert.equal(costs('keccak'), [40n, 49n, 46n, 55n, 70n, 40n]);
  assert.is(before.returnGrows!.returnValue.length, 2 + 2 * 0x40);
  for (const name of ['mloadOutOfGas', 'mstoreOutOfGas', 'keccakOutOfGas', 'returnOutOfGas']) assert.is(before[name]!.error, 'out of gas', name);
  for (const name of ['mloadUnderflow', 'mstoreUnderflow', 'keccakUnderflow', 'returnUnderflow']) assert.is(before[name]!.error, 'stack underflow', name);
});

Memory.run();

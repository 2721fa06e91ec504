/**
 * MLOAD, CALLDATALOAD, SLOAD and KECCAK256 without hex text (src/chain/execution/interpreter/wordLoads.ts): programs
 * loading words (aligned and not, past the memory or the data, stored values of every length, cold and warm
 * slots, hashes of no bytes, of words and of odd lengths, out of gas, stack underflow) end with the same return value, gas and error in an EVM made
 * before the change, in one made after it, and in one running opcodes in bursts (stepBursts.ts).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EVM } from '@ethereumjs/evm';
import { Account, Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { loadWordsWithoutHex } from '../../../../src/chain/execution/interpreter/wordLoads.ts';
import { sameAfterSwap, type Outcome } from '../../../helpers/opcodeSwaps.ts';

const Loads = suite('word loads without hex text');

const push32 = (hex: string) => `7f${hex.padStart(64, '0')}`;
/** Pushes `pushes` (each a PUSHn and its bytes) in turn, applies `op` to each and stores the results from 0x200 on; returns them all. */
const loading = (op: string, pushes: readonly string[]) =>
  `0x${pushes.map((p, i) => `${p}${op}${push32((0x200 + i * 32).toString(16))}52`).join('')}${push32((pushes.length * 32).toString(16))}610200f3`;

/** Slots set before each run: 1 (one byte), 2 (20 bytes), 3 (32 bytes), 2^255 + 5 (a large key); 4 is never set. */
const SLOTS: readonly [string, string][] = [
  ['01', '2a'], ['02', 'ab'.repeat(20)], ['03', `ff${'01'.repeat(31)}`], [`80${'00'.repeat(30)}05`, '07'],
];
const CALL_DATA = hexToBytes(`0x${Array.from({ length: 40 }, (_, i) => (i + 1).toString(16).padStart(2, '0')).join('')}`);

const PROGRAMS: Record<string, { code: string; gas?: bigint }> = {
  // Ones at 0x20, then words at 0x10 (across two words), 0x20, 0x30 and 0x40 (past the memory: it grows).
  mload: { code: `0x${push32('ff'.repeat(32))}602052${loading('51', ['6010', '6020', '6030', '6040']).slice(2)}` },
  mloadOutOfGas: { code: '0x63ffffffff51' },
  mloadUnderflow: { code: '0x51' },
  // The data is 40 bytes: words at 0, 4, 8 (its end), 20 (partial), 39, 40 (its length), 41 and 2^255.
  calldataload: { code: loading('35', ['6000', '6004', '6008', '6014', '6027', '6028', '6029', push32(`80${'00'.repeat(31)}`)]) },
  calldataloadUnderflow: { code: '0x35' },
  // Each slot twice (cold, then warm), the unset one and slot 0.
  sload: { code: loading('54', ['6001', '6002', '6003', push32(SLOTS[3]![0]), '6004', '6000', '6001', '6003']) },
  sloadUnderflow: { code: '0x54' },
  // 2,100 for the cold read: out of gas in its dynamic gas.
  sloadOutOfGas: { code: '0x600354', gas: 2_000n },
  // Ones at 0x20; hashes of 0 bytes, of 0 bytes far out, of the 32 ones, of 33 bytes from 0x1f, of 64 and of 5 from 0x30.
  keccak: { code: `0x${push32('ff'.repeat(32))}602052${['60006000', '60006affffffffffffffffffffff', '60206020', '6021601f', '60406000', '60056030']
    .map((p, i) => `${p}20${push32((0x200 + i * 32).toString(16))}52`).join('')}60c0610200f3` },
  keccakUnderflow: { code: '0x600120' },
};

const ADDRESS = new Address(new Uint8Array(20).fill(0x11));

async function runAll(evm: EVM): Promise<Record<string, Outcome>> {
  const out: Record<string, Outcome> = {};
  for (const [name, { code, gas = 100_000n }] of Object.entries(PROGRAMS)) {
    await evm.stateManager.putAccount(ADDRESS, new Account(1n, 0n));
    for (const [slot, value] of SLOTS) {
      await evm.stateManager.putStorage(ADDRESS, setLengthLeft(hexToBytes(`0x${slot}`), 32), hexToBytes(`0x${value}`));
    }
    evm.journal.cleanJournal();
    const r = await evm.runCode({ code: hexToBytes(code as `0x${string}`), data: CALL_DATA, gasLimit: gas, to: ADDRESS });
    out[name] = { returnValue: bytesToHex(r.returnValue), gasUsed: r.executionGasUsed, error: r.exceptionError?.error };
  }
  return out;
}

const handler = (evm: EVM, op: number) => (evm as unknown as { _opcodeMap: { opHandler: unknown; gasHandler?: unknown }[] })._opcodeMap[op]!;

Loads('every program ends the same with the library\'s loads, with the node\'s, and with the node\'s in bursts', async () => {
  const { library, swapped, before } = await sameAfterSwap(runAll, loadWordsWithoutHex);
  for (const op of [0x20, 0x35, 0x51, 0x54]) assert.is.not(handler(swapped, op).opHandler, handler(library, op).opHandler);
  assert.is.not(handler(swapped, 0x54).gasHandler, handler(library, 0x54).gasHandler);
  // The programs do what their names say.
  const words = (name: string) => before[name]!.returnValue.slice(2).match(/.{64}/g)!;
  assert.equal(words('mload'), [`${'00'.repeat(16)}${'ff'.repeat(16)}`, 'ff'.repeat(32), `${'ff'.repeat(16)}${'00'.repeat(16)}`, '00'.repeat(32)]);
  assert.is(words('calldataload')[3], `${bytesToHex(CALL_DATA.subarray(20)).slice(2)}${'00'.repeat(12)}`);
  assert.equal(words('calldataload').slice(5), ['00'.repeat(32), '00'.repeat(32), '00'.repeat(32)]);
  assert.equal(words('sload').slice(0, 5), SLOTS.map(([, v]) => v.padStart(64, '0')).concat('00'.repeat(32)));
  assert.is(words('keccak')[0], 'c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  assert.is(words('keccak')[1], words('keccak')[0]);
  assert.is(before.sloadOutOfGas!.error, 'out of gas');
  assert.is(before.mloadUnderflow!.error, 'stack underflow');
  assert.is(before.sloadUnderflow!.error, 'stack underflow');
  assert.is(before.keccakUnderflow!.error, 'stack underflow');
});

Loads.run();

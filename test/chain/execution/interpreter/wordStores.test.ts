/**
 * MSTORE, SSTORE and LOG0–LOG4 without the library's hex text and padding (src/chain/execution/interpreter/wordStores.ts):
 * programs storing words of every size (zero, one byte, 2^64, 2^128-1, 2^255, all ones) in memory at aligned and
 * unaligned offsets, in storage (new, overwritten, deleted and restored slots, cold and warm, large keys) and as log
 * topics (none to four, with and without data, memory growing) end with the same return value, gas, error, stored
 * bytes, refund and logs in an EVM made before the change, in one made after it and in one running opcodes in bursts.
 * SSTORE's gas is the node's own too: every branch of EIP-2200's pricing with EIP-2929's cold and warm slots (no-op,
 * create, clean write, delete, recreate, reset to the original, dirty write), the 2,300-gas sentry on both sides, and
 * a store in a static call.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { EVM } from '@ethereumjs/evm';
import { Account, Address, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { storeWordsUnpadded } from '../../../../src/chain/execution/interpreter/wordStores.ts';
import { sameAfterSwap } from '../../../helpers/opcodeSwaps.ts';

const Words = suite('word stores without hex text and padding');

const push32 = (hex: string) => `7f${hex.padStart(64, '0')}`;
/** Stores `push` (a PUSHn and its bytes) at `offset` over a word of ones at 0x20, then returns 0x80 bytes from 0. */
const storing = (push: string, offset: number) =>
  `0x${push32('ff'.repeat(32))}602052${push}60${offset.toString(16).padStart(2, '0')}5260806000f3`;
/** SSTOREs of each [value push, key push] in turn. */
const sstores = (pairs: readonly [string, string][]) => `0x${pairs.map(([v, k]) => `${v}${k}55`).join('')}00`;
/** LOGn of `topics` (PUSHes, first topic first) over the `length` bytes at `offset` (PUSHes). */
const logging = (topics: readonly string[], offset: string, length: string) =>
  `${[...topics].reverse().join('')}${length}${offset}${(0xa0 + topics.length).toString(16)}`;
const BIG_KEY = push32(`80${'00'.repeat(30)}05`);

const PROGRAMS: Record<string, { code: string; gas?: bigint; isStatic?: boolean }> = {
  mstoreZero: { code: storing('6000', 0x20) },
  mstoreOneByte: { code: storing('6007', 0x05) },
  mstoreTwoTo64: { code: storing('68010000000000000000', 0x21) },
  mstoreTwoTo128Less1: { code: storing(`6f${'ff'.repeat(16)}`, 0x1f) },
  mstoreTwoTo255: { code: storing(`7f80${'00'.repeat(31)}`, 0x40) },
  mstoreAllOnes: { code: storing(`7f${'ff'.repeat(32)}`, 0x00) },
  // Memory grows past the first words: offset 0x60 ends at 0x80, returned whole.
  mstoreGrows: { code: storing('602a', 0x60) },
  mstoreOutOfGas: { code: '0x600163ffffffff52' },
  mstoreUnderflow: { code: '0x600152' },
  // New slots (cold) of every value size, the set ones overwritten (warm), deleted, and one set back to its original.
  sstoreNew: { code: sstores([['6007', '6004'], ['68010000000000000000', '6005'], [push32('ff'.repeat(32)), BIG_KEY], [push32(`80${'00'.repeat(31)}`), '6006']]) },
  sstoreOverwrite: { code: sstores([['602a', '6001'], [push32(`00ff${'00'.repeat(30)}`), '6002'], ['6000', '6003'], ['6009', '6003'], ['6007', BIG_KEY]]) },
  sstoreDelete: { code: sstores([['6000', '6001'], ['6000', '6002'], ['6000', '6004']]) },
  sstoreRestore: { code: sstores([['6005', '6001'], ['602a', '6001'], ['6000', '6004'], ['6001', '6004'], ['6000', '6004']]) },
  // A slot set to the value it holds, cold, and one warm after an SLOAD; one deleted and set again (the clear
  // refund taken back), then back to its original value; one whose original is empty set and deleted again.
  sstoreNoop: { code: `0x602a600155${'60035450'}${push32(`ff${'01'.repeat(31)}`)}60035500` },
  sstoreRecreate: { code: sstores([['6000', '6002'], ['6007', '6002'], [`73${'ab'.repeat(20)}`, '6002']]) },
  sstoreCreateDelete: { code: sstores([['6009', '6005'], ['6000', '6005']]) },
  sstoreUnderflow: { code: '0x600155' },
  // Below EIP-2200's 2,300 gas sentry; and a warm no-op store (100 gas) with exactly 2,300 left, then 2,301 (its SLOAD
  // and POP 2,105, the two pushes 6).
  sstoreSentry: { code: '0x6001600155', gas: 2_305n },
  sstoreAtSentry: { code: '0x60015450602a600155', gas: 4_411n },
  sstoreAboveSentry: { code: '0x60015450602a600155', gas: 4_412n },
  sstoreStatic: { code: '0x6001600155', isStatic: true },
  // Topics of every size, data from memory (growing it) or none, then the returned memory.
  logs: { code: `0x${push32('ff'.repeat(32))}602052${[
    logging([], '6000', '600a'), logging(['60ff'], '6020', '6020'), logging([push32(`80${'00'.repeat(31)}`)], '6000', '6000'),
    logging(['6002', '6004'], '6010', '6004'), logging(['6001', '68010000000000000000', push32('ab'.repeat(32))], '603f', '6005'),
    logging(['6004', '6003', '6002', '6001'], '6040', '610100'),
  ].join('')}60e06000f3` },
  logUnderflow: { code: '0x60016002a3' },
  logOutOfGas: { code: '0x6001630fffffff6000a1' },
};

/** Slots set before each run: 1 (one byte), 2 (20 bytes), 3 (32 bytes), 2^255 + 5 (a large key); 4, 5, 6 are not. */
const SLOTS: readonly [string, string][] = [['01', '2a'], ['02', 'ab'.repeat(20)], ['03', `ff${'01'.repeat(31)}`], [`80${'00'.repeat(30)}05`, '07']];
const READ_BACK = ['01', '02', '03', '04', '05', '06', `80${'00'.repeat(30)}05`].map((k) => setLengthLeft(hexToBytes(`0x${k}`), 32));
const ADDRESS = new Address(new Uint8Array(20).fill(0x11));

async function runAll(evm: EVM) {
  const out: Record<string, unknown> = {};
  for (const [name, { code, gas = 100_000n, isStatic }] of Object.entries(PROGRAMS)) {
    await evm.stateManager.putAccount(ADDRESS, new Account(1n, 0n));
    for (const [slot, value] of SLOTS) await evm.stateManager.putStorage(ADDRESS, setLengthLeft(hexToBytes(`0x${slot}`), 32), hexToBytes(`0x${value}`));
    evm.journal.cleanJournal();
    await evm.journal.checkpoint();
    const r = await evm.runCode({ code: hexToBytes(code as `0x${string}`), gasLimit: gas, to: ADDRESS, isStatic });
    const stored = await Promise.all(READ_BACK.map(async (k) => bytesToHex(await evm.stateManager.getStorage(ADDRESS, k))));
    await evm.journal.revert();
    out[name] = {
      returnValue: bytesToHex(r.returnValue), gasUsed: r.executionGasUsed, error: r.exceptionError?.error, refund: r.gasRefund, stored,
      logs: (r.logs ?? []).map(([address, topics, data]) => [bytesToHex(address), topics.map((t) => bytesToHex(t)), bytesToHex(data)]),
    };
  }
  return out as Record<string, { returnValue: string; error?: string; stored: string[]; logs: [string, string[], string][]; refund?: bigint }>;
}

Words('every program ends the same with the library\'s MSTORE, SSTORE and LOG and with the node\'s', async () => {
  const { library, swapped, before } = await sameAfterSwap(runAll, storeWordsUnpadded);
  const table = (evm: EVM) => (evm as unknown as { _opcodeMap: { opHandler: unknown }[] })._opcodeMap;
  for (const op of [0x52, 0x55, 0xa0, 0xa4]) assert.is(table(swapped)[op]!.opHandler === table(library)[op]!.opHandler, false, `opcode 0x${op.toString(16)} swapped`);
  // The programs do what their names say.
  assert.is(before.mstoreOneByte!.returnValue.slice(2, 2 + 2 * 0x25), `${'00'.repeat(0x24)}07`);
  assert.is(before.mstoreAllOnes!.returnValue, `0x${'ff'.repeat(64)}${'00'.repeat(64)}`);
  assert.is(before.mstoreOutOfGas!.error, 'out of gas');
  assert.is(before.mstoreUnderflow!.error, 'stack underflow');
  // Stored values keep their shortest bytes: 0x07 is one byte, 2^64 nine, a deleted slot none.
  assert.equal(before.sstoreNew!.stored.slice(3, 6), ['0x07', '0x010000000000000000', `0x80${'00'.repeat(31)}`]);
  assert.is(before.sstoreNew!.stored[6], `0x${'ff'.repeat(32)}`, 'the large key holds all ones');
  assert.is(before.sstoreOverwrite!.stored[1], `0xff${'00'.repeat(30)}`);
  assert.equal(before.sstoreDelete!.stored.slice(0, 2), ['0x', '0x']);
  assert.ok(before.sstoreDelete!.refund! > 0n, 'deleting slots refunds gas');
  assert.is(before.sstoreSentry!.error, 'out of gas');
  assert.is(before.sstoreAtSentry!.error, 'out of gas');
  assert.is(before.sstoreAboveSentry!.error, undefined);
  assert.is(before.sstoreStatic!.error, 'static state change');
  assert.is(before.sstoreNoop!.stored[2], `0x${'ff'}${'01'.repeat(31)}`, 'a no-op store leaves the slot as it was');
  assert.is(before.sstoreRecreate!.stored[1], `0x${'ab'.repeat(20)}`);
  // The clear refund (4,800) is taken back when the slot is set again; the reset to its original value refunds 5,000 - 2,100 - 100.
  assert.is(before.sstoreRecreate!.refund, 2_800n);
  assert.ok(before.sstoreCreateDelete!.refund! > 0n, 'a slot created and deleted again refunds most of its cost');
  assert.is(before.sstoreUnderflow!.error, 'stack underflow');
  const logs = before.logs!.logs;
  assert.equal(logs.map(([, topics]) => topics.length), [0, 1, 1, 2, 3, 4]);
  assert.is(logs[1]![1][0], `0x${'00'.repeat(31)}ff`);
  assert.is(logs[2]![1][0], `0x80${'00'.repeat(31)}`);
  assert.is(logs[4]![1][1], `0x${'00'.repeat(23)}010000000000000000`);
  assert.is(logs[4]![1][2], `0x${'ab'.repeat(32)}`);
  assert.is(logs[0]![2], `0x${'00'.repeat(10)}`);
  assert.is(logs[5]![2].length, 2 + 2 * 0x100, 'LOG4 reads 0x100 bytes from 0x40: memory grows');
  assert.is(before.logUnderflow!.error, 'stack underflow');
  assert.is(before.logOutOfGas!.error, 'out of gas');
});

Words.run();

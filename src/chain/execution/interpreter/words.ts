/**
 * 256-bit words between bigints and their 32 big-endian bytes, as four 64-bit limbs (docs/rpc-workers.md,
 * "Calls"): the library's `bigIntToBytes` and `bytesToBigInt` go through hex text (with `setLengthLeft`,
 * about 2 µs a word to bytes, 0.6 µs back; here 0.2–0.5).
 */
import { bytesToBigInt } from '@ethereumjs/util';

const scratch = new Uint8Array(32);
const scratchView = new DataView(scratch.buffer);
const U64 = 64n;
const U128 = 128n;
const U192 = 192n;

/** Writes `value` (a stack word: below 2^256, not negative) big-endian into the 32 bytes `view` starts with. */
export function writeWord(view: DataView, value: bigint): void {
  view.setBigUint64(0, value >> U192);
  view.setBigUint64(8, BigInt.asUintN(64, value >> U128));
  view.setBigUint64(16, BigInt.asUintN(64, value >> U64));
  view.setBigUint64(24, BigInt.asUintN(64, value));
}

/** `value` (a stack word) as 32 new big-endian bytes (written through the scratch's view: one over a new array would move its bytes out of the heap, docs/performance.md "Short byte strings"). */
export function wordBytes(value: bigint): Uint8Array {
  writeWord(scratchView, value);
  return scratch.slice();
}

/** The number `bytes` hold big-endian, as `bytesToBigInt` gives it; `padRight` (for at most 32 bytes): as if zeros followed them up to 32. */
export function wordOf(bytes: Uint8Array, padRight = false): bigint {
  const n = bytes.length;
  if (n > 32) return bytesToBigInt(bytes);
  if (n !== 32) scratch.fill(0);
  scratch.set(bytes, padRight ? 0 : 32 - n);
  const a = scratchView.getBigUint64(0);
  const b = scratchView.getBigUint64(8);
  const c = scratchView.getBigUint64(16);
  const d = scratchView.getBigUint64(24);
  if (a === 0n && b === 0n && c === 0n) return d;
  return (a << U192) | (b << U128) | (c << U64) | d;
}

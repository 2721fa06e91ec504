/** Merged-mining target (docs/merged-mining.md "Target"): the bound a parent-chain header hash must not exceed. */
import { parentHeaderHash } from './parentHeader.js';

const TWO_256 = 1n << 256n;
/**
 * The hash being read: a view over the new 32-byte digest itself would move its bytes out of V8's heap (an
 * allocation, freed by a later collection), once per nonce tried (docs/performance.md "Short byte strings").
 */
const HASH = new Uint8Array(new ArrayBuffer(32));
const HASH_VIEW = new DataView(HASH.buffer);

/** Difficulties below this are raised to it before dividing (difficulty 1 and 2 act as 3). */
export const MIN_TARGET_DIVISOR = 3n;

/** floor(2^256 / max(difficulty, 3)), a 256-bit unsigned integer. */
export function targetFromDifficulty(difficulty: bigint): bigint {
  return TWO_256 / (difficulty > MIN_TARGET_DIVISOR ? difficulty : MIN_TARGET_DIVISOR);
}

/** `0x` + 64 hex digits: the target as a 32-byte big-endian number (the `mnr_getWork.target` form). */
export function targetToHex(target: bigint): string {
  if (target < 0n || target >= TWO_256) throw new RangeError(`target out of 256-bit range: ${target}`);
  return `0x${target.toString(16).padStart(64, '0')}`;
}

/** The header hash read the Bitcoin way: raw dsha256 bytes reversed, then big-endian (the raw bytes little-endian). */
export function parentHeaderHashValue(header80: Uint8Array): bigint {
  HASH.set(parentHeaderHash(header80));
  return (HASH_VIEW.getBigUint64(24, true) << 192n) | (HASH_VIEW.getBigUint64(16, true) << 128n)
    | (HASH_VIEW.getBigUint64(8, true) << 64n) | HASH_VIEW.getBigUint64(0, true);
}

/** True when the 80-byte header's hash, as a number, is ≤ target. The header's own `bits` is ignored. */
export function meetsTarget(header80: Uint8Array, target: bigint): boolean {
  return parentHeaderHashValue(header80) <= target;
}

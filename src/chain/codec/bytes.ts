/** Small byte and number helpers shared by the chain code and the RPC layer. */
import { bigIntToUnpaddedBytes, bytesToBigInt } from '@ethereumjs/util';

export type Hex = `0x${string}`;

/**
 * V8 keeps the bytes of a typed array of up to 64 bytes inside the array object, and moves them out to memory
 * of their own (two allocations, freed by a later collection) once anything asks for the array's `buffer`: a
 * DataView over it, a `subarray`, a Buffer view, a native call. So the helpers below that need one of those for a
 * short byte string go through an array of their own whose bytes live outside the heap from the start (SHORT,
 * HEX_TEXT; docs/performance.md "Short byte strings"). Synchronous and re-entered by nothing: one per thread suffices.
 */
const SHORT_BYTES = 64;
const SHORT = new Uint8Array(new ArrayBuffer(SHORT_BYTES));
const SHORT_VIEW = new DataView(SHORT.buffer);

export const EMPTY = new Uint8Array(0);
export const ZERO_HASH = new Uint8Array(32);
export const ZERO_ADDRESS = new Uint8Array(20);

const hexDigit = (code: number): number => (code < 58 ? code - 48 : code - 87); // 0-9, a-f (toString(16) is lower case)

/**
 * Minimal big-endian bytes; zero is the empty string (RLP `80`). The library's bigIntToUnpaddedBytes
 * gives the same bytes through a prefixed, padded and checked hex string and a copy that drops leading
 * zeros, nearly three times as long; every account, receipt and header number is encoded so.
 */
export function uintBytes(n: bigint | number): Uint8Array {
  const big = BigInt(n);
  if (big <= 0n) return big === 0n ? new Uint8Array(0) : bigIntToUnpaddedBytes(big); // a negative: the library's answer
  const hex = big.toString(16);
  const odd = hex.length % 2;
  const out = new Uint8Array((hex.length + odd) / 2);
  if (odd) out[0] = hexDigit(hex.charCodeAt(0));
  for (let i = odd, j = odd; i < hex.length; i += 2, j++) out[j] = hexDigit(hex.charCodeAt(i)) * 16 + hexDigit(hex.charCodeAt(i + 1));
  return out;
}

/**
 * Java two's-complement bytes as the reference node writes difficulty, gas limit and minimum gas
 * price (docs/chain.md "Header"): a leading `00` when the top bit is set, and zero as the single byte `00`.
 */
export function signedBytes(n: bigint): Uint8Array {
  if (n === 0n) return new Uint8Array([0]);
  const b = bigIntToUnpaddedBytes(n);
  if (b[0]! & 0x80) {
    const out = new Uint8Array(b.length + 1);
    out.set(b, 1);
    return out;
  }
  return b;
}

export const toBig = (b: Uint8Array): bigint => (b.length === 0 ? 0n : bytesToBigInt(b));
/** The ASCII codes of the lowercase hex digits. */
const HEX_DIGITS = Uint8Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** Where `hex` writes the text of up to SHORT_BYTES bytes: "0x", then their digits. */
const HEX_TEXT = Buffer.alloc(2 + 2 * SHORT_BYTES);
HEX_TEXT.write('0x', 'latin1');

/**
 * Lowercase 0x-hex in one flat string (bytesToHex appends two digits at a time: a string rope every reply walks
 * and copies, and a Map hashing it as a key flattens it first). A short byte string, a hash or an address, is
 * written digit by digit into a buffer of the module's; a longer one natively, through a view of its bytes
 * (docs/performance.md "Short byte strings").
 */
export function hex(b: Uint8Array): Hex {
  if (b.length > SHORT_BYTES) return `0x${Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex')}`;
  for (let i = 0, at = 2; i < b.length; i++, at += 2) {
    HEX_TEXT[at] = HEX_DIGITS[b[i]! >> 4]!;
    HEX_TEXT[at + 1] = HEX_DIGITS[b[i]! & 15]!;
  }
  return HEX_TEXT.toString('latin1', 0, 2 + 2 * b.length) as Hex;
}
/**
 * The bytes of 0x-hex (an odd number of digits gets a leading zero), decoded natively: @ethereumjs/util's
 * hexToBytes checks the text with a regular expression and decodes it two digits at a time in JavaScript,
 * about 100 µs for the 4.7 kB of a contract deployment's raw transaction against 8.5 here. Node's decoder
 * stops at the first pair that is not hex, so a shorter result means the text was not hex.
 */
export function fromHex(h: string): Uint8Array {
  const digits = h.length % 2 ? `0${h.slice(2)}` : h.slice(2);
  const decoded = Buffer.from(digits, 'hex');
  if (!h.startsWith('0x') || decoded.length * 2 !== digits.length) throw new Error(`not 0x-prefixed hex: ${h.length > 24 ? `${h.slice(0, 24)}…` : h}`);
  return new Uint8Array(decoded); // a copy of its own: a small Buffer is a view into a shared pool
}
export const quantity = (n: bigint | number): Hex => `0x${BigInt(n).toString(16)}`;

/** The items of an RLP list, still encoded (the list without its prefix). */
export function rlpListPayload(list: Uint8Array): Uint8Array {
  if (list[0]! < 0xc0) throw new Error('not an RLP list');
  return list.subarray(1 + (list[0]! > 0xf7 ? list[0]! - 0xf7 : 0));
}

/** Fixed-width big-endian encoding, used for sortable LevelDB keys. */
export function be64(n: bigint): Uint8Array {
  SHORT_VIEW.setBigUint64(0, n);
  return SHORT.slice(0, 8);
}

export { keccak256 } from './keccak.ts';

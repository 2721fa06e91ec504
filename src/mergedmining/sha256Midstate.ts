/**
 * SHA-256 split in two: the chaining state after a 64-byte-aligned prefix (the "midstate"), and the
 * digest finished from such a state over the rest of the message. The compressed coinbase
 * (docs/merged-mining.md "Compressed coinbase") stores a midstate; @noble/hashes cannot be started from one, so the
 * compression function (FIPS 180-4 §6.2.2) lives here. States travel as 32 bytes: eight 32-bit
 * words, big-endian, the same layout as a SHA-256 digest.
 */

/** Initial hash value H(0), FIPS 180-4 §5.3.3: the state before any byte is hashed. */
export const SHA256_IV: Uint8Array = wordsToBytes(
  Uint32Array.of(0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19),
);

/** Round constants K, FIPS 180-4 §4.2.2. */
const K = Uint32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);

const BLOCK_BYTES = 64;

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

/** The big-endian 32-bit word at `at`. */
const wordAt = (bytes: Uint8Array, at: number): number =>
  ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;

function bytesToWords(state: Uint8Array): Uint32Array {
  if (state.length !== 32) throw new Error(`SHA-256 state must be 32 bytes, got ${state.length}`);
  const words = new Uint32Array(8);
  for (let i = 0; i < 8; i++) words[i] = wordAt(state, i * 4);
  return words;
}

function wordsToBytes(words: Uint32Array): Uint8Array {
  const out = new Uint8Array(32);
  for (let i = 0; i < 8; i++) {
    const w = words[i]!;
    out[i * 4] = w >>> 24;
    out[i * 4 + 1] = w >>> 16;
    out[i * 4 + 2] = w >>> 8;
    out[i * 4 + 3] = w;
  }
  return out;
}

/** The message schedule, reused by every compression: hashing is synchronous and re-entered by nothing. */
const W = new Uint32Array(64);

/** Applies the compression function to `state` (in place) for the 64-byte block at `offset`. */
function compress(state: Uint32Array, data: Uint8Array, offset: number): void {
  const w = W;
  for (let t = 0; t < 16; t++) w[t] = wordAt(data, offset + t * 4);
  for (let t = 16; t < 64; t++) {
    const w15 = w[t - 15]!;
    const w2 = w[t - 2]!;
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
  }
  let a = state[0]!, b = state[1]!, c = state[2]!, d = state[3]!, e = state[4]!, f = state[5]!, g = state[6]!, h = state[7]!;
  for (let t = 0; t < 64; t++) {
    const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
  state[4] += e;
  state[5] += f;
  state[6] += g;
  state[7] += h;
}

/**
 * The SHA-256 chaining state (32 bytes, big-endian words) after hashing `prefix`, whose length must
 * be a multiple of 64. An empty prefix gives SHA256_IV.
 */
export function sha256Midstate(prefix: Uint8Array): Uint8Array {
  if (prefix.length % BLOCK_BYTES !== 0) throw new Error(`midstate prefix must be a multiple of 64 bytes, got ${prefix.length}`);
  const state = bytesToWords(SHA256_IV);
  for (let at = 0; at < prefix.length; at += BLOCK_BYTES) compress(state, prefix, at);
  return wordsToBytes(state);
}

/**
 * Finishes SHA-256 of `prefix ‖ tail` given only `midstate = sha256Midstate(prefix)` and
 * `hashedBytes = prefix.length` (a multiple of 64; it enters the final length padding).
 * Returns the 32-byte digest.
 */
export function sha256Resume(midstate: Uint8Array, hashedBytes: bigint, tail: Uint8Array): Uint8Array {
  if (hashedBytes < 0n || hashedBytes % BigInt(BLOCK_BYTES) !== 0n) {
    throw new Error(`hashed byte count must be a non-negative multiple of 64, got ${hashedBytes}`);
  }
  const bitLength = ((hashedBytes + BigInt(tail.length)) * 8n) & 0xffffffffffffffffn;
  // Padding: 0x80, zeros up to 56 mod 64, then the 64-bit big-endian message length in bits.
  const padded = new Uint8Array(Math.ceil((tail.length + 9) / BLOCK_BYTES) * BLOCK_BYTES);
  padded.set(tail);
  padded[tail.length] = 0x80;
  // Byte by byte: a DataView over a 64-byte array would move its bytes out of V8's heap (docs/performance.md "Short byte strings").
  for (let i = 1, bits = bitLength; i <= 8; i++, bits >>= 8n) padded[padded.length - i] = Number(bits & 0xffn);
  const state = bytesToWords(midstate);
  for (let at = 0; at < padded.length; at += BLOCK_BYTES) compress(state, padded, at);
  return wordsToBytes(state);
}

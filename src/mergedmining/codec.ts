/**
 * Little-endian integer and CompactSize ("varint") codecs of the parent-chain (Bitcoin) wire format,
 * and a bounds-checked reader that names what it was reading when the input runs out.
 */

/** Largest CompactSize value we accept: larger counts cannot describe any in-memory byte string. */
const MAX_VARINT = BigInt(Number.MAX_SAFE_INTEGER);

/** 4-byte little-endian encoding of an unsigned 32-bit integer. */
export function u32le(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) throw new RangeError(`not a uint32: ${value}`);
  return Uint8Array.of(value, value >>> 8, value >>> 16, value >>> 24);
}

/** 8-byte little-endian encoding of an unsigned 64-bit integer. */
export function u64le(value: bigint): Uint8Array {
  if (value < 0n || value >= 1n << 64n) throw new RangeError(`not a uint64: ${value}`);
  const low = Number(value & 0xffffffffn);
  const high = Number(value >> 32n);
  return Uint8Array.of(low, low >>> 8, low >>> 16, low >>> 24, high, high >>> 8, high >>> 16, high >>> 24);
}

/** Canonical (shortest) CompactSize encoding of a non-negative integer. */
export function varint(value: number): Uint8Array {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a varint value: ${value}`);
  if (value < 0xfd) return Uint8Array.of(value);
  if (value <= 0xffff) return Uint8Array.of(0xfd, value & 0xff, value >>> 8);
  if (value <= 0xffffffff) return Uint8Array.of(0xfe, ...u32le(value));
  return Uint8Array.of(0xff, ...u64le(BigInt(value)));
}

/** CompactSize length prefix followed by the bytes themselves (scripts, witness items). */
export function varBytes(bytes: Uint8Array): Uint8Array {
  const prefix = varint(bytes.length);
  const out = new Uint8Array(prefix.length + bytes.length);
  out.set(prefix);
  out.set(bytes, prefix.length);
  return out;
}

/**
 * Sequential reader over a byte string. Every read checks the remaining length and throws an Error
 * naming the field and offset, so truncated input never yields a partial value.
 */
export class ByteReader {
  readonly #bytes: Uint8Array;
  readonly #view: DataView;
  #offset: number;

  constructor(bytes: Uint8Array, offset = 0) {
    if (!Number.isInteger(offset) || offset < 0 || offset > bytes.length) {
      throw new RangeError(`offset ${offset} outside 0..${bytes.length}`);
    }
    this.#bytes = bytes;
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#offset = offset;
  }

  /** Current position, in bytes from the start of the underlying array. */
  get offset(): number {
    return this.#offset;
  }

  /** Bytes left after the current position. */
  get remaining(): number {
    return this.#bytes.length - this.#offset;
  }

  #take(n: number, what: string): number {
    if (n > this.remaining) {
      throw new Error(`truncated ${what}: need ${n} bytes at offset ${this.#offset}, ${this.remaining} left`);
    }
    const at = this.#offset;
    this.#offset += n;
    return at;
  }

  /** Next byte without consuming it; throws at the end of input. */
  peekU8(what: string): number {
    if (this.remaining < 1) throw new Error(`truncated ${what}: need 1 byte at offset ${this.#offset}, 0 left`);
    return this.#bytes[this.#offset];
  }

  u8(what: string): number {
    return this.#bytes[this.#take(1, what)];
  }

  u32le(what: string): number {
    return this.#view.getUint32(this.#take(4, what), true);
  }

  u64le(what: string): bigint {
    return this.#view.getBigUint64(this.#take(8, what), true);
  }

  /** A copy of the next `n` bytes. */
  bytes(n: number, what: string): Uint8Array {
    const at = this.#take(n, what);
    return this.#bytes.slice(at, at + n);
  }

  /** A canonical CompactSize; non-minimal encodings are rejected as Bitcoin Core does. */
  varint(what: string): number {
    const first = this.u8(what);
    let value: bigint;
    let min: bigint;
    if (first < 0xfd) return first;
    if (first === 0xfd) [value, min] = [BigInt(this.#view.getUint16(this.#take(2, what), true)), 0xfdn];
    else if (first === 0xfe) [value, min] = [BigInt(this.u32le(what)), 0x10000n];
    else [value, min] = [this.u64le(what), 0x100000000n];
    if (value < min) throw new Error(`non-canonical varint for ${what} at offset ${this.#offset}`);
    if (value > MAX_VARINT) throw new Error(`${what} too large: ${value}`);
    return Number(value);
  }

  /**
   * A CompactSize element count, rejected when even one byte per element could not fit in the rest
   * of the input (stops absurd counts before any allocation).
   */
  count(what: string): number {
    const n = this.varint(what);
    if (n > this.remaining) throw new Error(`${what} ${n} exceeds the ${this.remaining} bytes left`);
    return n;
  }

  /** A CompactSize length followed by that many bytes. */
  varBytes(what: string): Uint8Array {
    return this.bytes(this.varint(`${what} length`), what);
  }
}

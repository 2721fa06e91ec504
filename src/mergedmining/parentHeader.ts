/** The 80-byte parent-chain (Bitcoin) block header: codec and hash. */
import { ByteReader, u32le } from './codec.js';
import { dsha256 } from './hash.js';

/** Serialized size of a parent-chain header, in bytes. */
export const PARENT_HEADER_BYTES = 80;

/**
 * A decoded parent-chain header. Integers are unsigned 32-bit; hashes are 32 bytes in raw order
 * (as serialized, the reverse of explorer display order).
 */
export interface ParentHeader {
  version: number;
  /** Hash of the previous parent-chain block, raw order. */
  prevHash: Uint8Array;
  /** Merkle root of the block's txids, raw order. */
  merkleRoot: Uint8Array;
  /** Unix time, seconds. */
  time: number;
  /** Compact-form target of the parent chain (not checked by merged mining). */
  bits: number;
  nonce: number;
}

/** The 80-byte wire form: version, prevHash, merkleRoot, time, bits, nonce (integers little-endian). */
export function serializeParentHeader(header: ParentHeader): Uint8Array {
  if (header.prevHash.length !== 32 || header.merkleRoot.length !== 32) {
    throw new Error('parent header prevHash and merkleRoot must be 32 bytes');
  }
  const out = new Uint8Array(PARENT_HEADER_BYTES);
  out.set(u32le(header.version), 0);
  out.set(header.prevHash, 4);
  out.set(header.merkleRoot, 36);
  out.set(u32le(header.time), 68);
  out.set(u32le(header.bits), 72);
  out.set(u32le(header.nonce), 76);
  return out;
}

/** Decodes exactly 80 bytes; any other length throws. */
export function parseParentHeader(bytes: Uint8Array): ParentHeader {
  if (bytes.length !== PARENT_HEADER_BYTES) throw new Error(`parent header must be 80 bytes, got ${bytes.length}`);
  const r = new ByteReader(bytes);
  return {
    version: r.u32le('header version'),
    prevHash: r.bytes(32, 'header prevHash'),
    merkleRoot: r.bytes(32, 'header merkleRoot'),
    time: r.u32le('header time'),
    bits: r.u32le('header bits'),
    nonce: r.u32le('header nonce'),
  };
}

/** Block hash of an 80-byte header: dsha256, raw order (reverse it for display). */
export function parentHeaderHash(header80: Uint8Array): Uint8Array {
  if (header80.length !== PARENT_HEADER_BYTES) throw new Error(`parent header must be 80 bytes, got ${header80.length}`);
  return dsha256(header80);
}

/**
 * Keccak-256 through hash-wasm's WebAssembly Keccak (docs/performance.md "Keccak"). A call into
 * WebAssembly costs a few nanoseconds where a native add-on's costs hundreds, so the short inputs the
 * chain hashes most (keys, addresses, transactions, trie nodes of 32 to 532 bytes) take 0.9 to 2.5 µs,
 * against 2.4 to 3.9 µs through the `keccak` add-on's four calls per hash and 5 to 19 µs in JavaScript.
 */
import { createKeccak } from 'hash-wasm';

// One sponge serves every call of this thread: hashing is synchronous and re-entered by nothing.
const sponge = await createKeccak(256);

export function keccak256(data: Uint8Array): Uint8Array {
  sponge.init();
  sponge.update(data);
  return sponge.digest('binary');
}

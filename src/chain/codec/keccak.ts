/**
 * Keccak-256 through hash-wasm's WebAssembly Keccak (docs/performance.md "Keccak"). A call into
 * WebAssembly costs a few nanoseconds where a native add-on's costs hundreds, so the short inputs the
 * chain hashes most (keys, addresses, transactions, trie nodes of 32 to 532 bytes) take 0.9 to 2.5 µs,
 * against 2.4 to 3.9 µs through the `keccak` add-on's four calls per hash and 5 to 19 µs in JavaScript.
 */
import { createKeccak } from 'hash-wasm';

// One sponge serves every call of this thread: hashing is synchronous and re-entered by nothing.
const sponge = await createKeccak(256);

/**
 * Where an input of up to 64 bytes (an address, a key, a mapping slot's preimage) is copied before hashing:
 * hash-wasm views its input through `buffer`, which moves a short array's bytes out of V8's heap, an
 * allocation freed by a later collection (docs/performance.md "Short byte strings").
 */
const SHORT_INPUT = new Uint8Array(new ArrayBuffer(64));

export function keccak256(data: Uint8Array): Uint8Array {
  sponge.init();
  if (data.length <= SHORT_INPUT.length) {
    SHORT_INPUT.set(data);
    sponge.update(SHORT_INPUT.subarray(0, data.length));
  } else {
    sponge.update(data);
  }
  return sponge.digest('binary');
}

/**
 * The merged-mining tag in the parent-chain coinbase (docs/merged-mining.md "The coinbase tag", "Checks" 5–6): ASCII
 * `RSKBLOCK:` followed by the 32 raw bytes of hashForMergedMining, and the rules on where it may sit
 * in the un-hashed tail of the compressed coinbase.
 */
/** ASCII `RSKBLOCK:` (52 53 4b 42 4c 4f 43 4b 3a). */
export const MM_TAG: Uint8Array = new TextEncoder().encode('RSKBLOCK:');

/** The tag must start at a tail offset below this. */
export const MAX_TAG_OFFSET_IN_TAIL = 64;

/** At most this many bytes may follow the tagged 32-byte hash (to the end of the coinbase). */
export const MAX_BYTES_AFTER_TAGGED_HASH = 128;

/** The full coinbase (hashed bytes + tail) must be longer than this. */
export const MIN_COINBASE_BYTES_EXCLUSIVE = 64;

/** Offset of the last occurrence of `needle` in `haystack`, or -1. */
export function lastIndexOf(haystack: Uint8Array, needle: Uint8Array): number {
  outer: for (let at = haystack.length - needle.length; at >= 0; at--) {
    for (let i = 0; i < needle.length; i++) if (haystack[at + i] !== needle[i]) continue outer;
    return at;
  }
  return -1;
}

/**
 * Why a tag starting at `tagAt` in `tail` is not acceptable, or undefined when it is: it must be the
 * last tag of the tail, start below tail offset 64, be followed by a complete 32-byte hash and then
 * at most 128 bytes, and the whole coinbase (`hashedBytes` + tail) must exceed 64 bytes.
 */
export function tagPlacementError(hashedBytes: bigint, tail: Uint8Array, tagAt: number): string | undefined {
  if (lastIndexOf(tail, MM_TAG) !== tagAt) return 'tag must be the last RSKBLOCK: in the coinbase tail';
  if (tagAt >= MAX_TAG_OFFSET_IN_TAIL) return 'merged-mining tag must start within the first 64 bytes of the coinbase tail';
  const bytesAfterHash = tail.length - (tagAt + MM_TAG.length + 32);
  if (bytesAfterHash < 0) return 'merged-mining hash after the tag is truncated';
  if (bytesAfterHash > MAX_BYTES_AFTER_TAGGED_HASH) return 'more than 128 bytes follow the merged-mining hash';
  if (hashedBytes + BigInt(tail.length) <= BigInt(MIN_COINBASE_BYTES_EXCLUSIVE)) return 'coinbase must be longer than 64 bytes';
  return undefined;
}

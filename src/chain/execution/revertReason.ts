/** Decoding of Solidity revert data. */

/** Selector of `Error(string)`, the revert data of `require(cond, "reason")` and `revert("reason")`. */
const ERROR_STRING_SELECTOR = [0x08, 0xc3, 0x79, 0xa0];

/** The reason of an `Error(string)` revert, or undefined for any other (or malformed) revert data. */
export function revertReason(data: Uint8Array): string | undefined {
  if (data.length < 4 + 64 || ERROR_STRING_SELECTOR.some((b, i) => data[i] !== b)) return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // ABI: offset word (always 0x20 for a lone string), then the length word, then the bytes.
  if (data.subarray(36, 60).some((b) => b !== 0)) return undefined;
  const length = view.getBigUint64(60);
  if (length > BigInt(data.length - 68)) return undefined;
  return new TextDecoder().decode(data.subarray(68, 68 + Number(length)));
}

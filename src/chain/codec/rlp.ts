/**
 * RLP encoding of byte strings and lists, byte for byte what @ethereumjs/rlp's `encode` gives for
 * them, in one allocation: the sizes are measured first, then every item is written into one buffer.
 * The library encodes each item apart, each length through a hex string, and joins the pieces at every
 * level; a block's import encodes its header, body, receipts and every trie node it changes, thousands
 * of times a second in a sync (docs/network.md "Sync figures"). Decoding stays the library's.
 */

/** What is encoded: a byte string, or a list of them and of lists. */
export type RlpInput = Uint8Array | readonly RlpInput[];

const lengthOfLength = (n: number) => (n < 0x100 ? 1 : n < 0x10000 ? 2 : n < 0x1000000 ? 3 : 4);
const framed = (n: number) => (n < 56 ? 1 : 1 + lengthOfLength(n)) + n;

/** The encoded size of `item`; each list's payload size is pushed to `sizes`, in the order `write` meets them. */
function measure(item: RlpInput, sizes: number[]): number {
  if (item instanceof Uint8Array) return item.length === 1 && item[0]! < 0x80 ? 1 : framed(item.length);
  const at = sizes.push(0) - 1;
  let payload = 0;
  for (const x of item) payload += measure(x, sizes);
  sizes[at] = payload;
  return framed(payload);
}

function writePrefix(out: Uint8Array, pos: number, length: number, short: number): number {
  if (length < 56) {
    out[pos] = short + length;
    return pos + 1;
  }
  const bytes = lengthOfLength(length);
  out[pos++] = short + 55 + bytes;
  for (let shift = 8 * (bytes - 1); shift >= 0; shift -= 8) out[pos++] = (length >>> shift) & 0xff;
  return pos;
}

interface Writer { readonly out: Uint8Array; readonly sizes: number[]; list: number }

function write(w: Writer, item: RlpInput, pos: number): number {
  if (item instanceof Uint8Array) {
    if (item.length === 1 && item[0]! < 0x80) {
      w.out[pos] = item[0]!;
      return pos + 1;
    }
    pos = writePrefix(w.out, pos, item.length, 0x80);
    w.out.set(item, pos);
    return pos + item.length;
  }
  pos = writePrefix(w.out, pos, w.sizes[w.list++]!, 0xc0);
  for (const x of item) pos = write(w, x, pos);
  return pos;
}

/** The RLP prefix of a list whose items encode to `length` bytes. */
export function rlpListPrefix(length: number): Uint8Array {
  const out = new Uint8Array(framed(length) - length);
  writePrefix(out, 0, length, 0xc0);
  return out;
}

export function encodeRlp(item: RlpInput): Uint8Array {
  const sizes: number[] = [];
  const out = new Uint8Array(measure(item, sizes));
  write({ out, sizes, list: 0 }, item, 0);
  return out;
}

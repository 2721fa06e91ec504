/**
 * The root of a trie keyed by RLP(index), as the transactions and receipts tries of a block are,
 * computed in one pass: the keys are split by nibble from the top and each node is encoded and
 * hashed once. Building an incremental @ethereumjs/mpt trie (one put, one re-hash of the path per
 * item) costs several times more, and blocks are imported and built by the thousand in a sync.
 */
import { RLP } from '@ethereumjs/rlp';
import { concatBytes } from '@ethereumjs/util';
import { keccak256 } from './bytes.ts';

interface Entry {
  readonly nibbles: Uint8Array;
  readonly value: Uint8Array;
}

const toNibbles = (bytes: Uint8Array): Uint8Array => {
  const out = new Uint8Array(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    out[2 * i] = bytes[i]! >> 4;
    out[2 * i + 1] = bytes[i]! & 15;
  }
  return out;
};

/** Hex-prefix (compact) encoding of a key path, with the leaf flag. */
function compactPath(path: Uint8Array, leaf: boolean): Uint8Array {
  const odd = path.length % 2;
  const out = new Uint8Array(1 + (path.length >> 1));
  out[0] = ((leaf ? 2 : 0) + odd) << 4 | (odd ? path[0]! : 0);
  for (let i = odd, j = 1; i < path.length; i += 2, j++) out[j] = (path[i]! << 4) | path[i + 1]!;
  return out;
}

/** An RLP list around items that are already encoded. */
function rlpList(items: readonly Uint8Array[]): Uint8Array {
  const payload = concatBytes(...items);
  if (payload.length < 56) return concatBytes(Uint8Array.of(0xc0 + payload.length), payload);
  const len: number[] = [];
  for (let n = payload.length; n > 0; n = Math.floor(n / 256)) len.unshift(n % 256);
  return concatBytes(Uint8Array.of(0xf7 + len.length), Uint8Array.from(len), payload);
}

const EMPTY_STRING = RLP.encode(new Uint8Array());

/** How a parent refers to a node: embedded when its encoding is under 32 bytes, else by hash. */
const reference = (encoded: Uint8Array): Uint8Array => (encoded.length < 32 ? encoded : RLP.encode(keccak256(encoded)));

/** The encoded node holding `entries`, whose keys agree on their first `depth` nibbles. */
function encodeNode(entries: readonly Entry[], depth: number): Uint8Array {
  if (entries.length === 1) {
    const [only] = entries;
    return rlpList([RLP.encode(compactPath(only!.nibbles.subarray(depth), true)), RLP.encode(only!.value)]);
  }
  const first = entries[0]!.nibbles;
  let shared = 0;
  while (depth + shared < first.length && entries.every((e) => e.nibbles.length > depth + shared && e.nibbles[depth + shared] === first[depth + shared])) shared++;
  if (shared > 0) {
    return rlpList([RLP.encode(compactPath(first.subarray(depth, depth + shared), false)), reference(encodeNode(entries, depth + shared))]);
  }
  const children: Entry[][] = Array.from({ length: 16 }, () => []);
  let value: Uint8Array | undefined;
  for (const e of entries) {
    if (e.nibbles.length === depth) value = e.value;
    else children[e.nibbles[depth]!]!.push(e);
  }
  return rlpList([
    ...children.map((group) => (group.length ? reference(encodeNode(group, depth + 1)) : EMPTY_STRING)),
    value ? RLP.encode(value) : EMPTY_STRING,
  ]);
}

/** The root of the trie mapping RLP(i) to values[i]. */
export function orderedTrieRoot(values: readonly Uint8Array[]): Uint8Array {
  if (values.length === 0) return keccak256(EMPTY_STRING);
  return keccak256(encodeNode(values.map((value, i) => ({ nibbles: toNibbles(RLP.encode(i)), value })), 0));
}

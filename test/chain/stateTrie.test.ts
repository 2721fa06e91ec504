import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { bytesToHex, MapDB } from '@ethereumjs/util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchedAccountTrie } from '../../src/chain/stateTrie.ts';

/** Deterministic pseudo-random numbers, so a failure names a reproducible case. */
function random(seed: number) {
  let x = seed;
  return (n: number) => (x = (x * 1103515245 + 12345) % 2 ** 31) % n;
}

test('batched writes give the same root as one put or del at a time, and every key reads back', async () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const next = random(seed);
    const keys = Array.from({ length: 60 }, (_, i) => Uint8Array.from({ length: 20 }, (_, j) => (i * 31 + j * 7 + seed) % 256));
    // Short values make embedded nodes (encodings under 32 bytes), long ones hashed nodes.
    const value = () => Uint8Array.from({ length: 1 + next(next(2) ? 3 : 80) }, () => next(256));
    const db = new MapDB<string, Uint8Array>();
    const batched = new BatchedAccountTrie({ db, useKeyHashing: true });
    const reference = new MerklePatriciaTrie({ useKeyHashing: true });
    const live = new Map<string, Uint8Array>();
    for (let round = 0; round < 25; round++) {
      // Rounds of 1 to 20 writes; about a third delete, some of them keys that were never written.
      for (let w = 1 + next(20); w > 0; w--) {
        const key = keys[next(keys.length)]!;
        if (next(3) === 0) {
          await batched.del(key);
          await reference.del(key);
          live.delete(bytesToHex(key));
        } else {
          const v = value();
          await batched.put(key, v);
          await reference.put(key, v);
          live.set(bytesToHex(key), v);
        }
      }
      await batched.applyWrites();
      assert.is(bytesToHex(batched.root()), bytesToHex(reference.root()), `seed ${seed}, round ${round}`);
    }
    // A plain trie at the final root, over the same nodes, finds every live key and no other.
    const reader = new MerklePatriciaTrie({ db, root: batched.root(), useKeyHashing: true });
    for (const key of keys) {
      const got = await reader.get(key);
      const want = live.get(bytesToHex(key));
      assert.is(got ? bytesToHex(got) : undefined, want ? bytesToHex(want) : undefined, `seed ${seed}: ${bytesToHex(key)}`);
    }
  }
});

test('reads see writes that are still waiting', async () => {
  const trie = new BatchedAccountTrie({ useKeyHashing: true });
  const key = new Uint8Array(20).fill(1);
  await trie.put(key, Uint8Array.of(1, 2, 3));
  assert.equal(await trie.get(key), Uint8Array.of(1, 2, 3));
  await trie.del(key);
  assert.is(await trie.get(key), null);
  assert.is(bytesToHex(trie.root()), bytesToHex(trie.EMPTY_TRIE_ROOT));
});

test.run();

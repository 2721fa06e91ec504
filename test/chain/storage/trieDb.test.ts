import { bytesToHex, bytesToUnprefixedHex, KECCAK256_RLP } from '@ethereumjs/util';
import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { CommittedTrieDb, TRIE_CACHE_ENTRY_BYTES } from '../../../src/chain/storage/trieDb.ts';
import { tempDir } from '../../helpers/node.ts';

test('the node cache holds what its byte budget allows, the least recently used nodes leaving first; LevelDB serves the rest', async () => {
  const dir = tempDir('mmnode-triedb-');
  const store = new ChainStore(dir);
  await store.open();
  try {
    const node = (i: number) => Uint8Array.from({ length: 100 }, (_, j) => (i + j) % 256);
    const read = async (i: number) => { const v = await db.get(key(i)); return v && bytesToHex(v as Uint8Array); };
    const key = (i: number) => `${i}`.padStart(64, '0');
    // Node 0 is also on disk; the others exist only in the cache (remembered, not written).
    await store.trie.put(key(0), node(0));
    const db = new CommittedTrieDb(store.trie, 3 * (100 + TRIE_CACHE_ENTRY_BYTES));
    db.remember(new Map([1, 2, 3].map((i) => [key(i), node(i)])));
    assert.is(await read(1), bytesToHex(node(1)));
    db.remember(new Map([[key(4), node(4)]])); // over budget: 2, the least recently used, leaves
    assert.is(await read(2), undefined);
    assert.equal([await read(1), await read(3), await read(4)], [1, 3, 4].map((i) => bytesToHex(node(i))));
    // A node read from LevelDB is cached in turn, pushing out the least recent (1).
    assert.is(await read(0), bytesToHex(node(0)));
    assert.is(await read(1), undefined);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the empty trie\'s root is answered as missing without a LevelDB read', async () => {
  const dir = tempDir('mmnode-triedb-');
  const store = new ChainStore(dir);
  await store.open();
  try {
    const emptyRoot = bytesToUnprefixedHex(KECCAK256_RLP);
    // Never stored by the node; put here only so that a read reaching LevelDB would find it.
    await store.trie.put(emptyRoot, Uint8Array.of(0x80));
    const db = new CommittedTrieDb(store.trie);
    assert.is(await db.get(emptyRoot), undefined);
    assert.ok(await store.trie.get(emptyRoot));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

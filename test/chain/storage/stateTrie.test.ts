import { MerklePatriciaTrie } from '@ethereumjs/mpt';
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, MapDB, setLengthLeft } from '@ethereumjs/util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchedTrie, BatchedStateManager } from '../../../src/chain/storage/stateTrie.ts';
import { random } from '../../helpers/random.ts';

test('batched writes give the same root as one put or del at a time, and every key reads back', async () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const next = random(seed);
    const keys = Array.from({ length: 60 }, (_, i) => Uint8Array.from({ length: 20 }, (_, j) => (i * 31 + j * 7 + seed) % 256));
    // Short values make embedded nodes (encodings under 32 bytes), long ones hashed nodes.
    const value = () => Uint8Array.from({ length: 1 + next(next(2) ? 3 : 80) }, () => next(256));
    const db = new MapDB<string, Uint8Array>();
    const batched = new BatchedTrie({ db, useKeyHashing: true });
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
    // A plain trie and a batched one at the final root, over the same nodes, find every live key and no other.
    const readers = [new MerklePatriciaTrie({ db, root: batched.root(), useKeyHashing: true }), new BatchedTrie({ db, root: batched.root(), useKeyHashing: true })];
    const never = Array.from({ length: 20 }, (_, i) => Uint8Array.from({ length: 20 }, (_, j) => (i * 13 + j * 3 + 101) % 256));
    for (const reader of readers) {
      for (const key of [...keys, ...never]) {
        const got = await reader.get(key);
        const want = live.get(bytesToHex(key));
        assert.is(got ? bytesToHex(got) : undefined, want ? bytesToHex(want) : undefined, `seed ${seed}: ${bytesToHex(key)} (${reader.constructor.name})`);
      }
    }
  }
});

test('reads see writes that are still waiting', async () => {
  const trie = new BatchedTrie({ useKeyHashing: true });
  const key = new Uint8Array(20).fill(1);
  await trie.put(key, Uint8Array.of(1, 2, 3));
  assert.equal(await trie.get(key), Uint8Array.of(1, 2, 3));
  await trie.del(key);
  assert.is(await trie.get(key), null);
  assert.is(bytesToHex(trie.root()), bytesToHex(trie.EMPTY_TRIE_ROOT));
});

test('an empty trie answers a read without a database lookup, and with throwIfMissing as the library does', async () => {
  class CountingDb extends MapDB<string, Uint8Array> {
    reads = 0;
    override async get(key: string) {
      this.reads++;
      return super.get(key);
    }
  }
  const db = new CountingDb();
  const trie = new BatchedTrie({ db, useKeyHashing: true });
  assert.is(await trie.get(new Uint8Array(32).fill(7)), null);
  assert.is(db.reads, 0);
  const library = new MerklePatriciaTrie({ useKeyHashing: true });
  const missing = async (t: MerklePatriciaTrie) => t.get(new Uint8Array(32).fill(7), true).then(() => 'found', (err: Error) => err.message);
  assert.is(await missing(trie), await missing(library));
  // Once written, the trie is read as before.
  await trie.put(new Uint8Array(32).fill(7), Uint8Array.of(5));
  assert.equal(await trie.get(new Uint8Array(32).fill(7)), Uint8Array.of(5));
});

test('a read through a node the database lacks answers null, or with throwIfMissing the library\'s error', async () => {
  const key = new Uint8Array(32).fill(7);
  // Written by the library's trie, so that no node of it is kept decoded.
  const written = new MerklePatriciaTrie({ useKeyHashing: true });
  await written.put(key, new Uint8Array(40).fill(1));
  await written.put(new Uint8Array(32).fill(8), new Uint8Array(40).fill(2));
  const root = written.root();
  const [trie, library] = [new BatchedTrie({ root, useKeyHashing: true }), new MerklePatriciaTrie({ root, useKeyHashing: true })];
  assert.is(await trie.get(key), null);
  const missing = async (t: MerklePatriciaTrie) => t.get(key, true).then(() => 'found', (err: Error) => err.message);
  assert.is(await missing(trie), await missing(library));
});

test('an account read from the state cache is a new object each time: changing one changes neither the state nor the next read', async () => {
  const sm = new BatchedStateManager({ trie: new BatchedTrie({ db: new MapDB<string, Uint8Array>(), useKeyHashing: true }), caches: new Caches() });
  const address = new Address(new Uint8Array(20).fill(9));
  await sm.putAccount(address, new Account(3n, 100n));
  const first = (await sm.getAccount(address))!;
  first.balance -= 60n;
  first.nonce += 1n;
  const second = (await sm.getAccount(address))!;
  assert.is.not(second, first);
  assert.equal([second.nonce, second.balance], [3n, 100n]);
  await sm.putAccount(address, first);
  const third = (await sm.getAccount(address))!;
  assert.equal([third.nonce, third.balance], [4n, 40n]);
  assert.equal(third.storageRoot, second.storageRoot);
  await sm.deleteAccount(address);
  assert.is(await sm.getAccount(address), undefined);
});

test('an account read after a put is the account put, as it was put: the cache\'s encoding of it is not decoded again', async () => {
  const sm = new BatchedStateManager({ trie: new BatchedTrie({ db: new MapDB<string, Uint8Array>(), useKeyHashing: true }), caches: new Caches() });
  const address = new Address(new Uint8Array(20).fill(7));
  const put = new Account(3n, 100n);
  await sm.putAccount(address, put);
  // The caller changes its object afterwards, and the cache's encoding is overwritten in place (nonce 3 -> 5).
  put.nonce = 9n;
  put.balance = 1n;
  const rlp = (sm as unknown as { _caches: Caches })._caches.account!.get(address)!.accountRLP!;
  assert.is(rlp[2], 3);
  rlp[2] = 5;
  const read = (await sm.getAccount(address))!;
  assert.equal([read.nonce, read.balance], [3n, 100n]);
  read.balance = 0n;
  const again = (await sm.getAccount(address))!;
  assert.is.not(again, read);
  assert.equal([again.nonce, again.balance], [3n, 100n]);
});

test('a batched state manager gives the state roots of the library one, with storage and deletes', async () => {
  const next = random(7);
  const db = new MapDB<string, Uint8Array>();
  const batched = new BatchedStateManager({ trie: new BatchedTrie({ db, useKeyHashing: true }), caches: new Caches() });
  const reference = new MerkleStateManager({ trie: new MerklePatriciaTrie({ useKeyHashing: true }), caches: new Caches() });
  const addresses = Array.from({ length: 12 }, (_, i) => new Address(new Uint8Array(20).fill(i + 1)));
  const slots = Array.from({ length: 40 }, (_, i) => setLengthLeft(Uint8Array.of(i), 32));
  const expected = new Map<string, Uint8Array>();
  for (let block = 0; block < 30; block++) {
    for (const sm of [batched, reference]) await sm.checkpoint();
    for (let w = 1 + next(25); w > 0; w--) {
      const address = addresses[next(addresses.length)]!;
      const op = next(10);
      if (op < 3) {
        const account = new Account(BigInt(next(5)), BigInt(next(1000)));
        for (const sm of [batched, reference]) {
          // putAccount replaces the account, storage root included: keep the one it has.
          const storageRoot = (await sm.getAccount(address))?.storageRoot;
          await sm.putAccount(address, new Account(account.nonce, account.balance, storageRoot));
        }
      } else if (op < 4 && block > 0) {
        for (const sm of [batched, reference]) await sm.deleteAccount(address);
        // The library keeps a deleted account's storage trie and writes an account made again at the
        // address into it, deleted slots and all; a deleted account's storage is gone (stateTrie.ts).
        (reference as unknown as { _storageTries: object })._storageTries = {};
        for (const key of [...expected.keys()]) if (key.startsWith(address.toString())) expected.delete(key);
      } else {
        const slot = slots[next(slots.length)]!;
        // A zero value deletes the slot.
        const value = next(4) === 0 ? new Uint8Array() : Uint8Array.from({ length: 1 + next(32) }, () => 1 + next(255));
        for (const sm of [batched, reference]) {
          if (!(await sm.getAccount(address))) await sm.putAccount(address, new Account(1n, 1n));
          await sm.putStorage(address, slot, value);
        }
        expected.set(`${address}${bytesToHex(slot)}`, value);
      }
    }
    for (const sm of [batched, reference]) await sm.commit();
    assert.is(bytesToHex(await batched.getStateRoot()), bytesToHex(await reference.getStateRoot()), `block ${block}`);
  }
  // A plain state manager at the final root, over the batched manager's nodes, reads every slot back, and no deleted one.
  const reader = new MerkleStateManager({ trie: new MerklePatriciaTrie({ db, root: await batched.getStateRoot(), useKeyHashing: true }) });
  for (const address of addresses) {
    if (!(await reader.getAccount(address))) continue;
    for (const slot of slots) {
      const key = `${address}${bytesToHex(slot)}`;
      assert.is(bytesToHex(await reader.getStorage(address, slot)), bytesToHex(expected.get(key) ?? new Uint8Array()), key);
    }
  }
});

test.run();

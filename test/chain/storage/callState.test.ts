/**
 * The call VMs' state manager (src/chain/storage/callState.ts): what a reverted call read is kept for
 * the next call, what it wrote is not; reads inside nested frames are kept too; a slot read after the
 * call cleared its account's storage is not kept; past the bound the caches are emptied between calls;
 * a new root forgets what was kept.
 */
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, hexToBytes, MapDB, setLengthLeft } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callStateManagerAt, type CallStateManager } from '../../../src/chain/storage/callState.ts';
import { BatchedStateManager, BatchedTrie } from '../../../src/chain/storage/stateTrie.ts';

const Kept = suite('reads kept across reverted calls');

const A = new Address(hexToBytes('0x00000000000000000000000000000000000000aa'));
const B = new Address(hexToBytes('0x00000000000000000000000000000000000000bb'));
const C = new Address(hexToBytes('0x00000000000000000000000000000000000000cc'));
const SLOT = setLengthLeft(Uint8Array.of(1), 32);
const CODE = hexToBytes('0x600160005260206000f3');

/** A trie database holding two roots: A with balance 5, slot 1 = 7 and code, B and C; then A with balance 6 and slot 1 = 8. */
async function twoRoots(): Promise<{ db: MapDB<string, Uint8Array>; first: Uint8Array; second: Uint8Array }> {
  const db = new MapDB<string, Uint8Array>();
  const sm = new BatchedStateManager({ trie: new BatchedTrie({ db, useKeyHashing: true }), caches: new Caches() });
  await sm.putAccount(A, new Account(0n, 5n));
  await sm.putCode(A, CODE);
  await sm.putStorage(A, SLOT, Uint8Array.of(7));
  await sm.putAccount(B, new Account(0n, 1n));
  await sm.putAccount(C, new Account(0n, 2n));
  const first = await sm.getStateRoot();
  await sm.modifyAccountFields(A, { balance: 6n });
  await sm.putStorage(A, SLOT, Uint8Array.of(8));
  const second = await sm.getStateRoot();
  return { db, first, second };
}

/** One call as CallExecutor runs it: a checkpoint, `body`, the revert, the end of the call. */
async function call(sm: CallStateManager, body: () => Promise<void>): Promise<void> {
  await sm.checkpoint();
  try {
    await body();
  } finally {
    await sm.revert();
    sm.keepReadsWithin();
  }
}

/**
 * From here on a read that reaches a trie fails: `db` loses every node, and a trie's get throws (the
 * tries also read through nodes kept decoded, which `db` does not hold). What is read must come from
 * the caches.
 */
let triesClosed = false;
const trieGet = BatchedTrie.prototype.get;
BatchedTrie.prototype.get = function (this: BatchedTrie, ...args: Parameters<BatchedTrie['get']>) {
  if (triesClosed) return Promise.reject(new Error('a trie was read'));
  return trieGet.apply(this, args);
};
const emptied = (db: MapDB<string, Uint8Array>) => {
  db._database.clear();
  triesClosed = true;
};
Kept.before.each(() => { triesClosed = false; });

Kept('what a call read is kept and what it wrote is not: the next call reads without the trie', async () => {
  const { db, first } = await twoRoots();
  const sm = callStateManagerAt(db, first, undefined as never);
  await call(sm, async () => {
    assert.is((await sm.getAccount(A))!.balance, 5n);
    assert.equal(await sm.getStorage(A, SLOT), Uint8Array.of(7));
    assert.equal(await sm.getCode(A), CODE);
    await sm.putAccount(A, new Account(0n, 99n));
    await sm.putStorage(A, SLOT, Uint8Array.of(9));
    await sm.putAccount(new Address(hexToBytes('0x00000000000000000000000000000000000000dd')), new Account(0n, 3n));
  });
  assert.is(sm.keptReads, 3);
  await call(sm, async () => {
    assert.is(await sm.getAccount(new Address(hexToBytes('0x00000000000000000000000000000000000000dd'))), undefined, 'the account the call wrote is gone');
  });
  emptied(db);
  await call(sm, async () => {
    assert.is((await sm.getAccount(A))!.balance, 5n);
    assert.equal(await sm.getStorage(A, SLOT), Uint8Array.of(7));
    assert.equal(await sm.getCode(A), CODE);
  });
});

Kept('a slot or code the caches hold is answered without the library\'s reads, the same as they answer it; a short key is still refused', async () => {
  const { db, first } = await twoRoots();
  const sm = callStateManagerAt(db, first, undefined as never);
  await call(sm, async () => {
    await sm.getStorage(A, SLOT);
    await sm.getCode(A);
  });
  const library = MerkleStateManager.prototype;
  const reads = { storage: 0, code: 0 };
  const { getStorage, getCode } = library;
  library.getStorage = function (this: MerkleStateManager, ...args) { reads.storage++; return getStorage.apply(this, args); };
  library.getCode = function (this: MerkleStateManager, ...args) { reads.code++; return getCode.apply(this, args); };
  try {
    await call(sm, async () => {
      assert.equal(await sm.getStorage(A, SLOT), Uint8Array.of(7));
      assert.equal(await sm.getCode(A), CODE);
      await sm.putStorage(A, SLOT, new Uint8Array(0));
      assert.equal(await sm.getStorage(A, SLOT), new Uint8Array(0));
    });
    assert.equal(reads, { storage: 0, code: 0 });
    const refused = await sm.getStorage(A, SLOT.subarray(1)).then(() => undefined, (err: Error) => err.message);
    assert.match(refused ?? '', /32 bytes/);
  } finally {
    Object.assign(library, { getStorage, getCode });
  }
});

Kept('reads inside a nested frame, committed or reverted, are kept as well', async () => {
  const { db, first } = await twoRoots();
  const sm = callStateManagerAt(db, first, undefined as never);
  await call(sm, async () => {
    await sm.checkpoint();
    assert.is((await sm.getAccount(B))!.balance, 1n);
    await sm.putAccount(B, new Account(0n, 50n));
    await sm.commit();
    await sm.checkpoint();
    assert.is((await sm.getAccount(C))!.balance, 2n);
    await sm.putAccount(C, new Account(0n, 60n));
    await sm.revert();
    assert.is((await sm.getAccount(B))!.balance, 50n, 'the committed frame\'s write holds until the call ends');
  });
  emptied(db);
  await call(sm, async () => {
    assert.is((await sm.getAccount(B))!.balance, 1n);
    assert.is((await sm.getAccount(C))!.balance, 2n);
  });
});

Kept('a slot read after the call cleared the account\'s storage is not kept', async () => {
  const { db, first } = await twoRoots();
  const sm = callStateManagerAt(db, first, undefined as never);
  await call(sm, async () => {
    await sm.clearStorage(A);
    assert.equal(await sm.getStorage(A, SLOT), new Uint8Array());
  });
  await call(sm, async () => {
    assert.equal(await sm.getStorage(A, SLOT), Uint8Array.of(7));
  });
});

Kept('past its bound the caches are emptied between two calls', async () => {
  const { db, first } = await twoRoots();
  const sm = callStateManagerAt(db, first, undefined as never, undefined, 2);
  await call(sm, async () => { await sm.getAccount(A); await sm.getAccount(B); });
  assert.is(sm.keptReads, 2);
  await call(sm, async () => { await sm.getAccount(C); });
  assert.is(sm.keptReads, 0, 'a third value was one too many');
  emptied(db);
  await call(sm, async () => {
    const read = await sm.getAccount(A).then((a) => a?.balance, (err: Error) => err.message);
    assert.is.not(read, 5n, 'A was forgotten: its read reached the emptied trie');
  });
});

Kept('a new root forgets what was kept: a call at another root reads that root\'s values', async () => {
  const { db, first, second } = await twoRoots();
  const sm = callStateManagerAt(db, first, undefined as never);
  await call(sm, async () => { assert.is((await sm.getAccount(A))!.balance, 5n); });
  await sm.setStateRoot(second);
  assert.is(sm.keptReads, 0);
  await call(sm, async () => {
    assert.is((await sm.getAccount(A))!.balance, 6n);
    assert.equal(await sm.getStorage(A, SLOT), Uint8Array.of(8));
  });
  await sm.setStateRoot(first);
  await call(sm, async () => {
    assert.is((await sm.getAccount(A))!.balance, 5n);
    assert.equal(await sm.getStorage(A, SLOT), Uint8Array.of(7));
  });
  assert.ok(bytesToHex(first) !== bytesToHex(second));
});

Kept.run();

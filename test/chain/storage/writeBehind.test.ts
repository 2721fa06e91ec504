/**
 * The chain store's writes behind (docs/chain.md "Writes behind the head"): a batch is read back at once,
 * before LevelDB has it; it survives a kill -9 of the process that wrote it, through the write-ahead
 * journal; the journal is emptied once LevelDB has it all; a journal record cut short by a crash is left out.
 */
import { bytesToHex } from '@ethereumjs/util';
import { spawn } from 'node:child_process';
import { pbkdf2 } from 'node:crypto';
import { appendFileSync, readFileSync, rmSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { tempDir } from '../../helpers/node.ts';
import { BATCHES, headerKey, trieKey } from './killedWriter.ts';

const hex = (bytes: Uint8Array | undefined) => bytes && bytesToHex(bytes);
const hash = (i: number) => new Uint8Array(32).fill(i);
const JOURNAL = 'chain.journal';

test('a batch is read back at once, before LevelDB has it; a delete hides the value LevelDB still holds', async () => {
  const dir = tempDir('mmnode-store-');
  const store = new ChainStore(dir);
  await store.open();
  // A second opener reads LevelDB alone, on this thread: what it sees is what LevelDB has.
  const leveldb = new ChainStore(dir, { readsOnThisThread: true });
  await leveldb.open();
  try {
    await store.batch([{ type: 'put', sublevel: store.td, key: hash(9), value: Uint8Array.of(9) }]);
    // libuv's pool (4 threads) kept busy: LevelDB's write of the next batch waits behind these jobs.
    const order: string[] = [];
    const busy = Array.from({ length: 4 }, () => new Promise((done) => pbkdf2('x', 'y', 400_000, 32, 'sha256', () => done(order.push('pool job')))));
    store.write([
      { type: 'put', sublevel: store.headers, key: hash(1), value: Uint8Array.of(1, 2, 3) },
      { type: 'put', sublevel: store.trie, key: 'ab'.repeat(32), value: Uint8Array.of(4, 5) },
      { type: 'del', sublevel: store.td, key: hash(9) },
    ]);
    assert.is(store.unwrittenBatches, 1);
    const [header, node, td, many, has, hasMany] = await Promise.all([
      store.headers.get(hash(1)), store.trie.get('ab'.repeat(32)), store.td.get(hash(9)),
      store.headers.getMany([hash(1)]), store.headers.has(hash(1)), store.td.hasMany([hash(9)]),
    ]);
    order.push('reads');
    assert.is(await leveldb.headers.get(hash(1)), undefined, 'LevelDB does not have the batch yet');
    assert.is(hex(await leveldb.td.get(hash(9))), '0x09', 'nor its delete');
    await Promise.all(busy);
    assert.is(order[0], 'reads', 'the reads were answered without LevelDB');
    assert.is(hex(header), '0x010203');
    assert.is(hex(node), '0x0405');
    assert.is(td, undefined);
    assert.equal(many.map(hex), ['0x010203']);
    assert.is(has, true);
    assert.equal(hasMany, [false]);
    // Keys of the batch and keys LevelDB is asked for, together.
    assert.equal((await store.headers.getMany([hash(2), hash(1), hash(3)])).map(hex), [undefined, '0x010203', undefined]);
    assert.equal(await store.td.hasMany([hash(1), hash(9)]), [false, false]);

    // A later batch over the same key wins, also once the earlier one is written.
    store.write([{ type: 'put', sublevel: store.headers, key: hash(1), value: Uint8Array.of(7) }]);
    await store.settled();
    assert.is(store.unwrittenBatches, 0);
    assert.is(hex(await store.headers.get(hash(1))), '0x07');
    assert.is(hex(await leveldb.headers.get(hash(1))), '0x07', 'LevelDB has both batches, in order');
    assert.is(await leveldb.td.get(hash(9)), undefined);
  } finally {
    await leveldb.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the journal is emptied once LevelDB has every batch and it has grown past 1 MiB; the next record starts it again', async () => {
  const dir = tempDir('mmnode-store-');
  const store = new ChainStore(dir);
  await store.open();
  try {
    const size = () => statSync(join(dir, JOURNAL)).size;
    const put = (i: number, bytes: number) => store.write([{ type: 'put', sublevel: store.bodies, key: hash(i), value: new Uint8Array(bytes).fill(i) }]);
    put(1, 600_000);
    await store.settled();
    assert.ok(size() > 600_000, 'kept below 1 MiB');
    put(2, 600_000);
    assert.ok(size() > 1_200_000);
    await store.settled();
    assert.is(size(), 0, 'emptied past 1 MiB');
    put(3, 10);
    const record = size();
    assert.ok(record > 10 && record < 100, `the next record alone: ${record} bytes`);
    await store.settled();
    assert.is(hex(await store.bodies.get(hash(3))), '0x' + '03'.repeat(10));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('batches written just before a kill -9 are in the store after the restart', async () => {
  const dir = tempDir('mmnode-store-');
  try {
    const script = fileURLToPath(new URL('./killedWriter.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--dir', dir], { stdio: 'inherit' });
    const signal = await new Promise((done) => child.on('exit', (_code, sig) => done(sig)));
    assert.is(signal, 'SIGKILL');
    assert.ok(statSync(join(dir, JOURNAL)).size > BATCHES * 2_000, 'the journal holds the batches');

    const leveldb = new ChainStore(dir, { readsOnThisThread: true });
    await leveldb.open();
    const lastInLevelDb = await leveldb.headers.get(headerKey(BATCHES - 1));
    await leveldb.close();
    assert.is(lastInLevelDb, undefined, 'the process died before LevelDB had its last batch');

    const store = new ChainStore(dir);
    await store.open();
    try {
      for (let i = 0; i < BATCHES; i++) {
        assert.is(hex(await store.headers.get(headerKey(i))), bytesToHex(new Uint8Array(2_000).fill(i)), `batch ${i}`);
        assert.is(hex(await store.trie.get(trieKey(i))), bytesToHex(Uint8Array.of(i)));
      }
      assert.is(hex(await store.meta.get(ChainStore.HEAD)), bytesToHex(headerKey(BATCHES - 1)), 'the last batch of the head pointer wins');
      assert.is(statSync(join(dir, JOURNAL)).size, 0, 'the journal is emptied once LevelDB has it');
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a journal record cut short or damaged ends the journal; the records before it are kept', async () => {
  const dir = tempDir('mmnode-store-');
  try {
    const first = new ChainStore(dir);
    await first.open();
    // Kept as a crash would keep them: copied aside before close empties the journal.
    first.write([{ type: 'put', sublevel: first.headers, key: hash(1), value: Uint8Array.of(1) }]);
    first.write([{ type: 'put', sublevel: first.headers, key: hash(2), value: Uint8Array.of(2) }]);
    const journal = readFileSync(join(dir, JOURNAL));
    await first.close();
    const { ClassicLevel } = await import('classic-level');
    await ClassicLevel.destroy(dir);

    // The second record cut short: only the first is written at open.
    appendFileSync(join(dir, JOURNAL), journal);
    truncateSync(join(dir, JOURNAL), journal.length - 1);
    const second = new ChainStore(dir);
    await second.open();
    assert.is(hex(await second.headers.get(hash(1))), '0x01');
    assert.is(await second.headers.get(hash(2)), undefined);
    await second.close();

    // A damaged byte in the first record's body: nothing is written from it or after it, and the store still opens.
    await ClassicLevel.destroy(dir);
    const damaged = Buffer.from(journal);
    damaged[12]! ^= 0xff;
    appendFileSync(join(dir, JOURNAL), damaged);
    const third = new ChainStore(dir);
    await third.open();
    assert.is(await third.headers.get(hash(1)), undefined);
    assert.is(await third.headers.get(hash(2)), undefined);
    await third.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

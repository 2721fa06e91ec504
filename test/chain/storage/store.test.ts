/**
 * The chain store (src/chain/storage/store.ts): a second opener of the same directory whose reads run
 * on its own thread (as an RPC worker's do) reads what the first one wrote, with get and getMany,
 * byte keys and trie keys, present and missing alike, without waiting for libuv's thread pool.
 */
import { bytesToHex } from '@ethereumjs/util';
import { pbkdf2 } from 'node:crypto';
import { rmSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ChainStore } from '../../../src/chain/storage/store.ts';
import { tempDir } from '../../helpers/node.ts';

test('reads on this thread see the other opener\'s batches: get and getMany, present and missing keys', async () => {
  const dir = tempDir('mmnode-store-');
  const writer = new ChainStore(dir);
  await writer.open();
  const reader = new ChainStore(dir, { readsOnThisThread: true });
  await reader.open();
  try {
    const hash = (i: number) => new Uint8Array(32).fill(i);
    await writer.batch([
      { type: 'put', sublevel: writer.headers, key: hash(1), value: Uint8Array.of(1, 2, 3) },
      { type: 'put', sublevel: writer.td, key: hash(1), value: Uint8Array.of(9) },
      { type: 'put', sublevel: writer.trie, key: 'ab'.repeat(32), value: Uint8Array.of(4, 5) },
    ]);
    const hex = (bytes: Uint8Array | undefined) => bytes && bytesToHex(bytes);
    assert.is(hex(await reader.headers.get(hash(1))), '0x010203');
    assert.is(await reader.headers.get(hash(2)), undefined);
    assert.is(hex(await reader.td.get(hash(1))), '0x09', 'another sublevel');
    assert.is(await reader.td.get(new Uint8Array(32).fill(3)), undefined);
    assert.is(hex(await reader.trie.get('ab'.repeat(32))), '0x0405');
    assert.equal((await reader.headers.getMany([hash(2), hash(1)])).map(hex), [undefined, '0x010203']);
    // With libuv's pool (4 threads) busy, the writer's read waits for a free thread; the reader's does not.
    const order: string[] = [];
    const busy = Array.from({ length: 4 }, () => new Promise((done) => pbkdf2('x', 'y', 400_000, 32, 'sha256', () => done(order.push('pool job')))));
    await Promise.all([
      reader.headers.get(hash(1)).then(() => order.push('read on this thread')),
      writer.headers.get(hash(1)).then(() => order.push('read through the pool')),
      ...busy,
    ]);
    assert.is(order[0], 'read on this thread');
    assert.ok(order.indexOf('read through the pool') > order.indexOf('pool job'), order.join(', '));
    // A later batch is seen by the next read.
    await writer.batch([{ type: 'del', sublevel: writer.headers, key: hash(1) }]);
    assert.is(await reader.headers.get(hash(1)), undefined);
  } finally {
    await reader.close();
    await writer.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a store whose reads run on this thread reads at once after open', async () => {
  const dir = tempDir('mmnode-store-');
  const writer = new ChainStore(dir);
  await writer.open();
  await writer.batch([{ type: 'put', sublevel: writer.headers, key: new Uint8Array(32).fill(1), value: Uint8Array.of(1) }]);
  await writer.close();
  const reader = new ChainStore(dir, { readsOnThisThread: true });
  await reader.open();
  try {
    assert.equal([...(await reader.headers.get(new Uint8Array(32).fill(1)))!], [1]);
  } finally {
    await reader.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();

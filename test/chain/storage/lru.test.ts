import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Lru } from '../../../src/chain/storage/lru.ts';

test('by count: past the capacity the least recently used entry goes, and a read makes an entry recent', () => {
  const lru = new Lru<string, number>(2);
  lru.set('a', 1);
  lru.set('b', 2);
  assert.is(lru.get('a'), 1);
  lru.set('c', 3);
  assert.equal([lru.get('a'), lru.get('b'), lru.get('c')], [1, undefined, 3]);
  assert.is(lru.weight, 2);
});

test('by weight: entries go, least recent first, until the sum of weights fits; replacing and deleting keep the sum', () => {
  const lru = new Lru<string, Uint8Array>(100, (v) => v.byteLength);
  lru.set('a', new Uint8Array(40));
  lru.set('b', new Uint8Array(40));
  assert.is(lru.weight, 80);
  lru.get('a');
  lru.set('c', new Uint8Array(50)); // 130: b (least recent) goes
  assert.equal([lru.get('a')?.length, lru.get('b'), lru.get('c')?.length], [40, undefined, 50]);
  assert.is(lru.weight, 90);
  lru.set('a', new Uint8Array(10)); // replaced, not added
  assert.is(lru.weight, 60);
  lru.set('d', new Uint8Array(60)); // 120: c goes (a was set after c)
  assert.equal([lru.get('a')?.length, lru.get('c'), lru.get('d')?.length], [10, undefined, 60]);
  lru.delete('d');
  lru.delete('missing');
  assert.is(lru.weight, 10);
  lru.set('huge', new Uint8Array(101)); // heavier than the whole capacity: everything goes, itself too
  assert.equal([lru.get('a'), lru.get('huge')], [undefined, undefined]);
  assert.is(lru.weight, 0);
});

test('entries whose value is null count too', () => {
  const lru = new Lru<string, Uint8Array | null>(2);
  lru.set('a', null);
  lru.set('b', null);
  lru.set('a', null);
  assert.is(lru.weight, 2);
  lru.delete('a');
  assert.is(lru.weight, 1);
});

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Lru } from '../../../src/chain/storage/lru.ts';
import { random } from '../../helpers/random.ts';

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

test('long runs of sets, reads, deletes and clears evict exactly what a list kept in recency order evicts', () => {
  for (const seed of [1, 2, 3]) {
    const next = random(seed);
    const capacity = 50;
    const lru = new Lru<number, number>(capacity);
    let model: number[] = []; // keys, least recent first
    for (let step = 0; step < 20_000; step++) {
      const key = next(120);
      const op = next(100);
      if (op < 55) {
        lru.set(key, key);
        model = [...model.filter((k) => k !== key), key].slice(-capacity);
      } else if (op < 90) {
        const had = model.includes(key);
        assert.is(lru.get(key), had ? key : undefined, `seed ${seed}, step ${step}`);
        if (had) model = [...model.filter((k) => k !== key), key];
      } else if (op < 99) {
        lru.delete(key);
        model = model.filter((k) => k !== key);
      } else {
        lru.clear();
        model = [];
      }
      assert.is(lru.weight, model.length, `seed ${seed}, step ${step}`);
    }
    for (let key = 0; key < 120; key++) assert.is(lru.get(key), model.includes(key) ? key : undefined);
  }
});

test.run();

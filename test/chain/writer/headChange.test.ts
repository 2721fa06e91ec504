/** Head changes of a run of imports published as one (the chain actor's blocks.import). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Block } from '../../../src/chain/codec/block.ts';
import type { HeadInfo } from '../../../src/chain/reader.ts';
import { mergeHeadChanges } from '../../../src/chain/writer.ts';

const HeadChange = suite('mergeHeadChanges');
const block = (id: number) => ({ hash: Uint8Array.of(id) }) as unknown as Block;
const head = (id: number) => ({ hash: Uint8Array.of(id) }) as unknown as HeadInfo;
const ids = (blocks: readonly Block[]) => blocks.map((b) => b.hash[0]);

HeadChange('extensions append', () => {
  const m = mergeHeadChanges([{ head: head(2), added: [block(1), block(2)], removed: [] }, { head: head(3), added: [block(3)], removed: [] }])!;
  assert.equal(ids(m.added), [1, 2, 3]);
  assert.equal(ids(m.removed), []);
  assert.is(m.head.hash[0], 3);
});

HeadChange('a reorg of blocks added just before cancels them; older ones are reported removed, newest first', () => {
  // 9 and 8 were canonical; the run reorged them away for 1, 2, then a reorg from below 1 replaced 2, 1 and 7.
  const first = { head: head(2), added: [block(1), block(2)], removed: [block(9), block(8)] };
  const m = mergeHeadChanges([first, { head: head(4), added: [block(3), block(4)], removed: [block(2), block(1), block(7)] }])!;
  assert.equal(ids(m.added), [3, 4]);
  assert.equal(ids(m.removed), [9, 8, 7]);
});

HeadChange('one change is itself, none is nothing; a long run keeps every block in order', () => {
  const only = { head: head(1), added: [block(1)], removed: [] };
  assert.is(mergeHeadChanges([only]), only);
  assert.is(mergeHeadChanges([]), undefined);
  const run = Array.from({ length: 200 }, (_, i) => ({ head: head(i + 1), added: [block(i + 1)], removed: [] }));
  const m = mergeHeadChanges(run)!;
  assert.equal(ids(m.added), run.map((_, i) => (i + 1) % 256));
  assert.is(m.head.hash[0], 200);
});

HeadChange.run();

import { bytesToHex } from '@ethereumjs/util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { orderedTrie } from '../../../src/chain/execution/blockRunner.ts';
import { orderedTrieRoot } from '../../../src/chain/storage/trieRoot.ts';
import { random } from '../../helpers/random.ts';

function values(count: number, seed: number, maxLength: number): Uint8Array[] {
  const next = random(seed);
  return Array.from({ length: count }, () => Uint8Array.from({ length: 1 + next(maxLength) }, () => next(256)));
}

test('the one-pass root equals the root of an @ethereumjs/mpt trie of the same entries', async () => {
  // 0..300 items cover keys of one and two bytes (RLP(128) = 0x8180); short values make embedded nodes.
  for (const count of [0, 1, 2, 3, 15, 16, 17, 127, 128, 129, 200, 300]) {
    for (const maxLength of [1, 4, 40, 200]) {
      const vs = values(count, count * 7 + maxLength, maxLength);
      const expected = bytesToHex((await orderedTrie(vs)).root());
      assert.is(bytesToHex(orderedTrieRoot(vs)), expected, `${count} values of up to ${maxLength} bytes`);
    }
  }
});

test('the empty root is the empty trie root', () => {
  assert.is(bytesToHex(orderedTrieRoot([])), '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421');
});

test.run();

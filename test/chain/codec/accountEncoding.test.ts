/**
 * Accounts encoded in one allocation (src/chain/codec/accountEncoding.ts): the same bytes as the
 * library's RLP of the account's fields, for numbers at every length boundary of RLP and random ones,
 * and an account with a field not loaded still fails as it did.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { RLP } from '@ethereumjs/rlp';
import { Account, bytesToHex, createPartialAccount } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { encodeAccountsInOnePass } from '../../../src/chain/codec/accountEncoding.ts';

const Encoding = suite('accounts encoded in one allocation');

const NUMBERS = [0n, 1n, 0x7fn, 0x80n, 0xffn, 0x100n, 0xffffn, 10n ** 18n, 10n ** 27n, 2n ** 64n, 2n ** 255n, 2n ** 256n - 1n, 2n ** 300n];
const random = (bytes: number) => BigInt(`0x${randomBytes(bytes).toString('hex')}`);

function accounts(): Account[] {
  const out: Account[] = [];
  for (const nonce of NUMBERS) for (const balance of NUMBERS) out.push(new Account(nonce, balance, randomBytes(32), randomBytes(32)));
  for (let i = 0; i < 500; i++) out.push(new Account(random(1 + (i % 9)), random(1 + (i % 33)), randomBytes(32), randomBytes(32)));
  out.push(new Account()); // the empty account: the empty trie's root and the empty code's hash
  return out;
}

Encoding('every account encodes to the library\'s bytes', () => {
  const all = accounts();
  const library = all.map((a) => bytesToHex(RLP.encode(a.raw())));
  encodeAccountsInOnePass();
  assert.equal(all.map((a) => bytesToHex(a.serialize())), library);
});

Encoding('an account with a field not loaded fails as before', () => {
  encodeAccountsInOnePass();
  const partial = createPartialAccount({ nonce: 1n, balance: null, storageRoot: null, codeHash: null, codeSize: null, version: null });
  assert.throws(() => partial.serialize(), /not loaded/);
});

Encoding.run();

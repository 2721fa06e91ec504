/** addressOfPrivateKey gives @ethereumjs/util's privateToAddress for the development keys and random ones, and refuses keys outside 1..n−1. */
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addressOfPrivateKey } from '../../../src/chain/codec/keyAddress.ts';
import { DEV_ACCOUNTS } from '../../../src/chain/execution/networks.ts';

test('the development accounts and 200 random keys: the library\'s addresses', () => {
  const keys = [...DEV_ACCOUNTS.map((a) => a.privateKey), ...Array.from({ length: 200 }, () => new Uint8Array(randomBytes(32)))];
  for (const key of keys) assert.is(bytesToHex(addressOfPrivateKey(key)), bytesToHex(privateToAddress(key)));
  assert.is(bytesToHex(DEV_ACCOUNTS[0]!.address), '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826');
});

test('zero, the group order and short keys are refused', () => {
  const order = Uint8Array.from(Buffer.from('fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141', 'hex'));
  for (const key of [new Uint8Array(32), order, new Uint8Array(31).fill(1)]) assert.throws(() => addressOfPrivateKey(key));
});

test.run();

/**
 * personal_* through the dispatcher with a real keystore in a temp dir on a clock of its own, and no
 * node: unlock durations (a hex string counts milliseconds, a JSON number seconds), keys and
 * addresses in either spelling, bad input that is -32602 naming the parameter and changes nothing,
 * and a node without keys. Sending from these accounts on a real node: personal.test.ts.
 */
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { getAddress } from 'ethers';
import { readdirSync, rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { LIGHT_SCRYPT } from '../../../src/accounts/keystore.ts';
import { DEFAULT_UNLOCK_MS, Wallet } from '../../../src/accounts/wallet.ts';
import { fakeRpc } from '../../helpers/fakeRpc.ts';
import { tempDir } from '../../helpers/node.ts';

const Personal = suite('personal_* without a node');
const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const ADDRESS = bytesToHex(privateToAddress(hexToBytes(KEY)));
const dir = tempDir('mmnode-keystore-');
Personal.after(() => rmSync(dir, { recursive: true, force: true }));

const clock = { ms: 1_000_000 };
const wallet = new Wallet({ dir, scrypt: LIGHT_SCRYPT, devKeys: [], now: () => clock.ms });
const rpc = fakeRpc({ wallet });
const unlockedFor = async (ms: number) => {
  const start = clock.ms;
  clock.ms = start + ms - 1;
  const before = wallet.isUnlocked(ADDRESS as `0x${string}`);
  clock.ms = start + ms + 1;
  const after = wallet.isUnlocked(ADDRESS as `0x${string}`);
  clock.ms = start;
  return before && !after;
};

Personal('a raw key with or without 0x, and an address in any case, name one account', async () => {
  assert.is(await rpc.result('personal_importRawKey', [KEY.slice(2), 'pw']), ADDRESS);
  assert.equal(readdirSync(dir).length, 1);
  assert.is(await rpc.result('personal_dumpRawKey', [getAddress(ADDRESS)]), KEY, 'a checksummed address names it too');
  const again = await rpc.error('personal_importRawKey', [KEY, 'pw']);
  assert.equal(again, { code: -32602, message: `account ${ADDRESS} already exists in the keystore` });
  assert.equal(await rpc.result('personal_listAccounts'), [ADDRESS]);
  assert.equal(await rpc.result('eth_accounts'), [ADDRESS]);
});

Personal('unlock durations: hex counts milliseconds, a JSON number seconds; none or null is the default; 0 lasts until locked', async () => {
  for (const [duration, ms] of [['0x3e8', 1_000], [2, 2_000], [null, DEFAULT_UNLOCK_MS], [undefined, DEFAULT_UNLOCK_MS]] as const) {
    assert.is(await rpc.result('personal_lockAccount', [ADDRESS]), true);
    assert.is(await rpc.result('personal_unlockAccount', duration === undefined ? [ADDRESS, 'pw'] : [ADDRESS, 'pw', duration]), true);
    assert.ok(await unlockedFor(ms), `${JSON.stringify(duration)}: unlocked for ${ms} ms`);
  }
  await rpc.result('personal_unlockAccount', [ADDRESS, 'pw', 0]);
  clock.ms += 10 * DEFAULT_UNLOCK_MS;
  assert.ok(wallet.isUnlocked(ADDRESS as `0x${string}`), '0: until locked');
  assert.is(await rpc.result('personal_lockAccount', [ADDRESS]), true);
  assert.not.ok(wallet.isUnlocked(ADDRESS as `0x${string}`));
});

Personal('bad input is -32602 naming the parameter, and changes nothing', async () => {
  const cases: [string, unknown[], string][] = [
    ['personal_importRawKey', ['0x1234', 'pw'], 'invalid argument 0 (key): expected a 32-byte private key (64 hex digits, 0x optional)'],
    ['personal_importRawKey', [`0x${'0'.repeat(64)}`, 'pw'], 'invalid private key: expected 32 bytes, non-zero and below the secp256k1 order'],
    ['personal_importRawKey', [KEY, 7], '1 (passphrase)'],
    ['personal_unlockAccount', [ADDRESS, 'pw', 'soon'], 'Invalid duration param (argument 2 (duration))'],
    ['personal_unlockAccount', [ADDRESS, 'pw', -1], 'Invalid duration param (argument 2 (duration))'],
    ['personal_unlockAccount', [ADDRESS, 'pw', 1.5], 'Invalid duration param (argument 2 (duration))'],
    ['personal_unlockAccount', [ADDRESS, 'wrong'], `could not decrypt the key of ${ADDRESS}: wrong passphrase`],
    ['personal_unlockAccount', ['me', 'pw'], '0 (address)'],
    ['personal_lockAccount', [`0x${'11'.repeat(20)}`], `unknown account 0x${'11'.repeat(20)}: this node holds no key for it`],
    ['personal_dumpRawKey', [ADDRESS], `account ${ADDRESS} is locked`],
    ['personal_newAccount', [], '0 (passphrase)'],
    ['personal_newAccountWithSeed', [null], '0 (seed)'],
  ];
  for (const [method, params, message] of cases) {
    const err = await rpc.error(method, params);
    assert.is(err.code, -32602, `${method}: ${err.code} ${err.message}`);
    assert.match(err.message, message);
  }
  assert.equal(await rpc.result('personal_listAccounts'), [ADDRESS]);
  assert.equal(readdirSync(dir).length, 1);
  assert.not.ok(wallet.isUnlocked(ADDRESS as `0x${string}`));
});

Personal('a node without keys: personal_* are -32604, eth_sign and the eth_sendTransaction methods -32602 saying so, eth_accounts is []', async () => {
  const keyless = fakeRpc();
  for (const method of ['personal_newAccount', 'personal_listAccounts', 'personal_unlockAccount', 'personal_sendTransaction']) {
    assert.equal(await keyless.error(method, ['pw']), { code: -32604, message: 'The local wallet feature is disabled: this node holds no keys' }, method);
  }
  for (const method of ['eth_sign', 'eth_sendTransaction', 'eth_sendTransactionSync']) {
    const err = await keyless.error(method, [ADDRESS, '0x00']);
    assert.is(err.code, -32602, method);
    assert.match(err.message, 'Local wallet is disabled in this node: it holds no keys. Sign transactions yourself and send them with eth_sendRawTransaction');
  }
  assert.equal(await keyless.result('eth_accounts'), []);
});

Personal.run();

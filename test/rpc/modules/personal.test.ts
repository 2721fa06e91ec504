/**
 * personal_* over JSON-RPC on a regtest node: accounts in an encrypted keystore in the data dir,
 * unlock and lock, signing and sending from them; wrong passphrases and unknown accounts are clear
 * errors that change nothing; accounts survive a restart, locked.
 */
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { ethers } from 'ethers';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, tempDir, type TestNode } from '../../helpers/node.ts';
import { rpc, rpcError, waitUntil } from '../../helpers/rpc.ts';

const DEV = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const MINER = '0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d';
const KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const IMPORTED = bytesToHex(privateToAddress(hexToBytes(KEY)));
const OTHER = '0x1111111111111111111111111111111111111111';
const SEED = 'mmnode personal test seed';
const SEEDED = new ethers.Wallet(ethers.keccak256(ethers.toUtf8Bytes(SEED))).address.toLowerCase();

const Personal = suite('personal_* and the keystore');
const dataDir = tempDir();
let node: TestNode | undefined;
Personal.after(async () => { await node?.stop(); });

const url = async () => (node ??= await startTestNode({ dataDir, lightKdf: true })).url;
const call = async <T = any>(method: string, params: unknown[] = []) => rpc<T>(await url(), method, params);
const fails = async (method: string, params: unknown[]) => rpcError(await url(), method, params);
const keystoreFiles = () => readdirSync(join(dataDir, 'keystore'));

async function assertRefused(method: string, params: unknown[], message: RegExp) {
  const accounts = await call('personal_listAccounts');
  const files = keystoreFiles();
  const err = await fails(method, params);
  assert.is(err.code, -32602, `${method}: ${err.code} ${err.message}`);
  assert.match(err.message, message);
  assert.equal(await call('personal_listAccounts'), accounts, 'no account changed');
  assert.equal(keystoreFiles(), files, 'no key file changed');
}

Personal('the development accounts are held, unlocked, in the reference order', async () => {
  const accounts = await call<string[]>('personal_listAccounts');
  assert.is(accounts.length, 11);
  assert.is(accounts[0], DEV);
  assert.is(accounts[10], MINER);
  assert.equal(await call('eth_accounts'), accounts);
  assert.equal(keystoreFiles(), [], 'public development keys are not written');
  assert.is(await call('personal_lockAccount', [DEV]), false, 'they stay unlocked');
  assert.match(await call('eth_sign', [DEV, '0x1234']), /^0x[0-9a-f]{130}$/);
});

Personal('personal_newAccount: a key file without the key, unlocked for the default 30 minutes', async () => {
  const address = await call<string>('personal_newAccount', ['s3cret']);
  assert.match(address, /^0x[0-9a-f]{40}$/);
  assert.is((await call<string[]>('eth_accounts')).at(-1), address);
  const [file] = keystoreFiles();
  assert.ok(file!.endsWith(address.slice(2)));
  const key = await call<string>('personal_dumpRawKey', [address]);
  assert.is(new ethers.Wallet(key).address.toLowerCase(), address);
  const json = readFileSync(join(dataDir, 'keystore', file!), 'utf8');
  assert.not.ok(json.toLowerCase().includes(key.slice(2)), 'the key file holds no key bytes');
  assert.is((await ethers.Wallet.fromEncryptedJson(json, 's3cret')).privateKey, key, 'other tools read the file');

  assert.is(await call('personal_lockAccount', [address]), true);
  await assertRefused('personal_dumpRawKey', [address], /locked/);
  await assertRefused('eth_sign', [address, '0x1234'], /locked/);
  await assertRefused('personal_unlockAccount', [address, 'wrong', null], /wrong passphrase/);
  await assertRefused('personal_dumpRawKey', [address], /locked/);
  assert.is(await call('personal_unlockAccount', [address, 's3cret', '0x927c0']), true);
  assert.is(await call('personal_dumpRawKey', [address]), key);
});

Personal('personal_importRawKey, personal_newAccountWithSeed, and their bad input', async () => {
  assert.is(await call('personal_importRawKey', [KEY.slice(2), 'pw']), IMPORTED);
  assert.is(await call('personal_dumpRawKey', [IMPORTED]), KEY);
  await assertRefused('personal_importRawKey', [KEY, 'pw'], /already exists/);
  await assertRefused('personal_importRawKey', ['0x1234', 'pw'], /private key/);
  await assertRefused('personal_importRawKey', [`0x${'0'.repeat(64)}`, 'pw'], /invalid private key/);
  await assertRefused('personal_unlockAccount', [IMPORTED, 'pw', 'soon'], /Invalid duration param/);
  await assertRefused('personal_unlockAccount', [OTHER, 'pw', null], /unknown account/);
  await assertRefused('personal_lockAccount', [OTHER], /unknown account/);
  await assertRefused('personal_newAccountWithSeed', [null], /seed/);
  const seeded = await call<string>('personal_newAccountWithSeed', [SEED]);
  assert.is(seeded, SEEDED);
  assert.is((await call<string[]>('eth_accounts')).at(-1), SEEDED);
  assert.is(await call('personal_dumpRawKey', [SEEDED]), ethers.keccak256(ethers.toUtf8Bytes(SEED)), 'key = keccak256(seed), unlocked');
  assert.is(await call('personal_newAccountWithSeed', ['cow1']), '0x7986b3df570230288501eea3d890bd66948c9b79', 'the reference regtest seeds');
});

Personal('personal_sendTransaction signs with the passphrase alone; eth_sendTransaction needs the account unlocked', async () => {
  const sender = await call<string>('personal_newAccount', ['pay']);
  assert.is(await call('personal_lockAccount', [sender]), true);
  const fund = await call<string>('eth_sendTransaction', [{ from: DEV, to: sender, value: '0xde0b6b3a7640000' }]);
  await waitUntil(() => call('eth_getTransactionReceipt', [fund]), { what: 'funding mined' });

  await assertRefused('eth_sendTransaction', [{ from: sender, to: OTHER, value: '0x1' }], /locked/);
  await assertRefused('personal_sendTransaction', [{ from: sender, to: OTHER, value: '0x1' }, 'wrong'], /wrong passphrase/);
  await assertRefused('personal_sendTransaction', [{ from: OTHER, to: DEV, value: '0x1' }, 'pay'], /unknown account/);
  assert.equal(await call('txpool_status'), { pending: 0, queued: 0 }, 'nothing reached the pool');

  const hash = await call<string>('personal_sendTransaction', [{ from: sender, to: OTHER, value: '0x5' }, 'pay']);
  const receipt = await waitUntil(() => call('eth_getTransactionReceipt', [hash]), { what: 'personal_sendTransaction mined' });
  assert.is(receipt.from, sender);
  assert.is(await call('eth_getBalance', [OTHER, 'latest']), '0x5');
  await assertRefused('personal_dumpRawKey', [sender], /locked/);

  assert.is(await call('personal_unlockAccount', [sender, 'pay', null]), true);
  const second = await call<string>('eth_sendTransaction', [{ from: sender, to: OTHER, value: '0x5' }]);
  await waitUntil(() => call('eth_getTransactionReceipt', [second]), { what: 'eth_sendTransaction mined' });
  assert.is(await call('eth_getBalance', [OTHER, 'latest']), '0xa');
});

Personal('after a restart the stored accounts are listed again, locked; seed accounts are gone', async () => {
  const before = await call<string[]>('personal_listAccounts');
  await node!.stop({ keepData: true });
  node = undefined;
  const after = await call<string[]>('personal_listAccounts');
  const stored = before.filter((a) => keystoreFiles().some((f) => f.endsWith(a.slice(2))));
  assert.equal(after, [...before.slice(0, 11), ...stored]);
  assert.ok(before.includes(SEEDED));
  assert.not.ok(after.includes(SEEDED), 'a seed account lives in memory only');
  await assertRefused('personal_dumpRawKey', [IMPORTED], /locked/);
  assert.is(await call('personal_unlockAccount', [IMPORTED, 'pw', null]), true);
  assert.is(await call('personal_dumpRawKey', [IMPORTED]), KEY);
});

Personal.run();

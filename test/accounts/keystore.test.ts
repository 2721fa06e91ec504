/**
 * Key files (Web3 Secret Storage v3) and the wallet, without a node: files other tools read, no key
 * bytes on disk, wrong passphrases refused, unlock durations on a test clock.
 */
import { bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { ethers } from 'ethers';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { decryptKey, encryptKey, LIGHT_SCRYPT, WrongPassphraseError } from '../../src/accounts/keystore.ts';
import { Wallet } from '../../src/accounts/wallet.ts';
import { NodeError } from '../../src/errors.ts';
import { tempDir } from '../helpers/node.ts';

const Keystore = suite('keystore and wallet');
const dirs: string[] = [];
Keystore.after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const freshDir = () => {
  const d = tempDir('mmnode-keystore-');
  dirs.push(d);
  return join(d, 'keystore');
};

const KEY = hexToBytes('0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318');
const ADDRESS = bytesToHex(privateToAddress(KEY));

/** Every file under `dir`, checked for the key in hex (either case) and as raw bytes. */
function assertNoKeyBytes(dir: string) {
  const hex = bytesToHex(KEY).slice(2);
  for (const name of readdirSync(dir)) {
    const raw = readFileSync(join(dir, name));
    const text = raw.toString('utf8').toLowerCase();
    assert.not.ok(text.includes(hex), `${name} holds the key in hex`);
    assert.is(raw.indexOf(Buffer.from(KEY)), -1, `${name} holds the key bytes`);
  }
}

const rejects = async (run: () => Promise<unknown> | unknown, message: RegExp) => {
  try {
    await run();
  } catch (err) {
    assert.instance(err, NodeError);
    assert.match((err as Error).message, message);
    return;
  }
  assert.unreachable(`expected an error matching ${message}`);
};

Keystore('a v3 key file round-trips, and ethers reads it (and we read ethers\')', async () => {
  const file = await encryptKey(KEY, 'correct horse', LIGHT_SCRYPT);
  assert.is(file.version, 3);
  assert.is(file.crypto.kdf, 'scrypt');
  assert.is(`0x${file.address}`, ADDRESS);
  assert.equal(await decryptKey(file, 'correct horse'), KEY);
  const viaEthers = await ethers.Wallet.fromEncryptedJson(JSON.stringify(file), 'correct horse');
  assert.is(viaEthers.privateKey, bytesToHex(KEY));
  const fromEthers = JSON.parse(await ethers.encryptKeystoreJson({ address: ADDRESS, privateKey: bytesToHex(KEY) }, 'other', { scrypt: { N: 1024 } }));
  assert.equal(await decryptKey(fromEthers, 'other'), KEY);
  try {
    await decryptKey(file, 'wrong');
    assert.unreachable('a wrong passphrase must not decrypt');
  } catch (err) {
    assert.instance(err, WrongPassphraseError);
  }
});

Keystore('imported and new keys are stored encrypted only, owner-readable, and listed after a restart', async () => {
  const dir = freshDir();
  const wallet = new Wallet({ dir, scrypt: LIGHT_SCRYPT, devKeys: [] });
  assert.is(await wallet.importRawKey(KEY, 'pw'), ADDRESS);
  const created = await wallet.newAccount('pw2');
  assert.equal(wallet.accounts(), [ADDRESS, created]);
  const files = readdirSync(dir);
  assert.is(files.length, 2);
  for (const f of files) {
    assert.match(f, /^UTC--\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z--[0-9a-f]{40}$/);
    assert.is(statSync(join(dir, f)).mode & 0o077, 0, 'no access for group or others');
  }
  assertNoKeyBytes(dir);
  await rejects(() => wallet.importRawKey(KEY, 'again'), /already exists/);
  assert.is(readdirSync(dir).length, 2);

  writeFileSync(join(dir, 'notes.txt'), 'not a key file');
  const reopened = new Wallet({ dir, scrypt: LIGHT_SCRYPT, devKeys: [] });
  assert.equal(reopened.accounts(), [ADDRESS, created]);
  assert.is(reopened.isUnlocked(ADDRESS), false, 'a restart starts locked');
});

Keystore('a wrong passphrase does not unlock; the right one does, for its duration', async () => {
  let now = 1_000_000;
  const wallet = new Wallet({ dir: freshDir(), scrypt: LIGHT_SCRYPT, devKeys: [], now: () => now });
  await wallet.importRawKey(KEY, 'pw');
  assert.is(wallet.lock(ADDRESS), true);
  await rejects(() => wallet.unlock(ADDRESS, 'nope', 60_000), /could not decrypt the key of .*: wrong passphrase/);
  assert.is(wallet.isUnlocked(ADDRESS), false);
  await rejects(() => wallet.dumpRawKey(ADDRESS), /is locked/);
  await rejects(() => wallet.signMessage(ADDRESS, new Uint8Array([1])), /is locked/);

  assert.is(await wallet.unlock(ADDRESS, 'pw', 60_000), true);
  assert.is(wallet.dumpRawKey(ADDRESS), bytesToHex(KEY));
  now += 59_999;
  assert.is(wallet.isUnlocked(ADDRESS), true);
  now += 1;
  assert.is(wallet.isUnlocked(ADDRESS), false, 'expired');
  await rejects(() => wallet.dumpRawKey(ADDRESS), /is locked/);

  assert.is(await wallet.unlock(ADDRESS, 'pw', 0), true);
  now += 10 ** 9;
  assert.is(wallet.isUnlocked(ADDRESS), true, 'duration 0: until locked');
  assert.is(wallet.lock(ADDRESS), true);
  assert.is(wallet.lock(ADDRESS), false, 'already locked');
});

Keystore('development and seed accounts are always unlocked and never written', async () => {
  const dir = freshDir();
  const wallet = new Wallet({ dir, scrypt: LIGHT_SCRYPT, devKeys: [KEY] });
  assert.equal(wallet.accounts(), [ADDRESS]);
  const seeded = wallet.newAccountWithSeed('cow');
  assert.is(seeded, '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', 'key = keccak256("cow"), the reference regtest account');
  assert.is(readdirSync(dir).length, 0);
  assert.is(wallet.lock(ADDRESS), false);
  assert.is(await wallet.unlock(ADDRESS, 'anything'), false, 'no key file to unlock');
  assert.is(wallet.isUnlocked(ADDRESS), true);
  const sig = wallet.signMessage(seeded, new TextEncoder().encode('hi'));
  assert.is(ethers.verifyMessage('hi', bytesToHex(sig)).toLowerCase(), seeded);
  await rejects(() => wallet.dumpRawKey('0x1111111111111111111111111111111111111111'), /unknown account/);
  await rejects(() => wallet.unlock('0x1111111111111111111111111111111111111111', 'pw'), /unknown account/);
});

Keystore.run();

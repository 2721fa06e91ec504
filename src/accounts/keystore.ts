/**
 * Web3 Secret Storage v3 key files (the format geth, ethers, web3.js and MetaMask read): the private
 * key encrypted with AES-128-CTR under a key derived from the passphrase by scrypt, and a
 * Keccak-256 MAC that tells a wrong passphrase from a right one. Files live in `<data dir>/keystore`,
 * one per account, named `UTC--<time>--<address>` as geth names them, readable by the owner only.
 * Key bytes exist only in memory; a file holds only the ciphertext. Cryptography is Node's
 * (OpenSSL scrypt, AES) and @noble/hashes' Keccak.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { addressOfPrivateKey } from '../chain/codec/keyAddress.ts';
import { createCipheriv, createDecipheriv, pbkdf2, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { keccak256, type Hex } from '../chain/codec/bytes.ts';
import { logger } from '../log.ts';

const log = logger('keystore');

export interface ScryptParams {
  readonly n: number;
  readonly r: number;
  readonly p: number;
}

/** geth's StandardScryptN/P: about a second per encryption or unlock. */
export const STANDARD_SCRYPT: ScryptParams = { n: 262_144, r: 8, p: 1 };
/** geth's LightScryptN/P (`--lightkdf`): fast, for development and tests. */
export const LIGHT_SCRYPT: ScryptParams = { n: 4_096, r: 8, p: 6 };

export interface KeyFileV3 {
  readonly address: string;
  readonly id: string;
  readonly version: 3;
  readonly crypto: {
    readonly cipher: 'aes-128-ctr';
    readonly cipherparams: { readonly iv: string };
    readonly ciphertext: string;
    readonly kdf: 'scrypt' | 'pbkdf2';
    readonly kdfparams: Record<string, string | number>;
    readonly mac: string;
  };
}

export class WrongPassphraseError extends Error {}

const scryptAsync = promisify(scrypt) as (pw: string, salt: Uint8Array, len: number, o: object) => Promise<Buffer>;
const pbkdf2Async = promisify(pbkdf2);
const unprefixed = (b: Uint8Array) => bytesToHex(b).slice(2);
const bytes = (h: unknown, what: string): Uint8Array => {
  if (typeof h !== 'string' || !/^(0x)?([0-9a-fA-F]{2})*$/.test(h)) throw new Error(`key file: ${what} is not hex`);
  return hexToBytes(`0x${h.replace(/^0x/, '')}`);
};

const mac = (derived: Uint8Array, ciphertext: Uint8Array) => keccak256(Buffer.concat([derived.subarray(16, 32), ciphertext]));

export async function encryptKey(key: Uint8Array, passphrase: string, params: ScryptParams): Promise<KeyFileV3> {
  const salt = randomBytes(32);
  const iv = randomBytes(16);
  const derived = await scryptAsync(passphrase, salt, 32, { N: params.n, r: params.r, p: params.p, maxmem: 256 * params.n * params.r * params.p + (1 << 20) });
  const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(key), cipher.final()]);
  const file: KeyFileV3 = {
    address: unprefixed(addressOfPrivateKey(key)),
    id: randomUUID(),
    version: 3,
    crypto: {
      cipher: 'aes-128-ctr', cipherparams: { iv: unprefixed(iv) }, ciphertext: unprefixed(ciphertext),
      kdf: 'scrypt', kdfparams: { dklen: 32, n: params.n, r: params.r, p: params.p, salt: unprefixed(salt) },
      mac: unprefixed(mac(derived, ciphertext)),
    },
  };
  derived.fill(0);
  return file;
}

async function deriveKey(c: KeyFileV3['crypto'], passphrase: string): Promise<Buffer> {
  const k = c.kdfparams;
  const salt = bytes(k.salt, 'salt');
  if (c.kdf === 'scrypt') {
    const [n, r, p] = [Number(k.n), Number(k.r), Number(k.p)];
    return scryptAsync(passphrase, salt, Number(k.dklen), { N: n, r, p, maxmem: 256 * n * r * p + (1 << 20) });
  }
  if (c.kdf === 'pbkdf2' && k.prf === 'hmac-sha256') return pbkdf2Async(passphrase, salt, Number(k.c), Number(k.dklen), 'sha256');
  throw new Error(`key file: unsupported key derivation ${String(c.kdf)}`);
}

/** The private key, or WrongPassphraseError when the MAC does not match. */
export async function decryptKey(file: KeyFileV3, passphrase: string): Promise<Uint8Array> {
  // Some writers (ethers, older wallets) spell the section `Crypto`, as geth also accepts.
  const c = file.crypto ?? (file as unknown as { Crypto?: KeyFileV3['crypto'] }).Crypto;
  if (!c) throw new Error('key file: no crypto section');
  if (c.cipher !== 'aes-128-ctr') throw new Error(`key file: unsupported cipher ${String(c.cipher)}`);
  const derived = await deriveKey(c, passphrase);
  const ciphertext = bytes(c.ciphertext, 'ciphertext');
  const expected = bytes(c.mac, 'mac');
  const actual = mac(derived, ciphertext);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new WrongPassphraseError('wrong passphrase');
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), bytes(c.cipherparams.iv, 'iv'));
  const key = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  derived.fill(0);
  return new Uint8Array(key);
}

/** The key files of one directory, by lowercase 0x address. */
export class Keystore {
  readonly #files = new Map<Hex, string>();

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // File names start with their creation time, so sorting them gives creation order.
    for (const name of readdirSync(dir).sort()) {
      try {
        const address = String((JSON.parse(readFileSync(join(dir, name), 'utf8')) as KeyFileV3).address).replace(/^0x/, '').toLowerCase();
        if (!/^[0-9a-f]{40}$/.test(address)) throw new Error('no address in the file');
        this.#files.set(`0x${address}`, join(dir, name));
      } catch (err) {
        log.warn(`ignoring ${name}: ${(err as Error).message}`);
      }
    }
  }

  addresses(): Hex[] {
    return [...this.#files.keys()];
  }

  has(address: Hex): boolean {
    return this.#files.has(address);
  }

  read(address: Hex): KeyFileV3 | undefined {
    const path = this.#files.get(address);
    return path === undefined ? undefined : (JSON.parse(readFileSync(path, 'utf8')) as KeyFileV3);
  }

  /** Writes a new key file (never overwrites one); owner-only permissions. */
  write(file: KeyFileV3): Hex {
    const address = `0x${file.address}` as Hex;
    const name = `UTC--${new Date().toISOString().replace(/:/g, '-')}--${file.address}`;
    const path = join(this.dir, name);
    writeFileSync(path, JSON.stringify(file), { flag: 'wx', mode: 0o600 });
    this.#files.set(address, path);
    return address;
  }
}

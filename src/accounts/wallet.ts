/**
 * The node's accounts (personal_*, eth_accounts, eth_sign, eth_sendTransaction): the sole holder
 * of private keys. Keys of the keystore (keystore.ts) are in memory only while unlocked, for a
 * duration; the regtest development accounts and accounts made from a seed are always unlocked
 * and never written (their keys are public or derivable). No key leaves this object except through
 * `dumpRawKey` for an unlocked account.
 *
 * Every change happens synchronously after the last await of an operation, so concurrent RPC
 * calls cannot interleave half-made changes (an import checks again after its slow encryption).
 */
import type { LegacyTx, TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, concatBytes, utf8ToBytes } from '@ethereumjs/util';
import { addressOfPrivateKey } from '../chain/codec/keyAddress.ts';
import { randomBytes } from 'node:crypto';
import secp256k1 from 'secp256k1';
import { keccak256, uintBytes, type Hex } from '../chain/codec/bytes.ts';
import { NodeError } from '../errors.ts';
import { MAX_TIMER_MS } from '../machines/clock.ts';
import { decryptKey, encryptKey, Keystore, WrongPassphraseError, type ScryptParams } from './keystore.ts';

/** Reference default unlock duration: 30 minutes. */
export const DEFAULT_UNLOCK_MS = 1_800_000;

export interface WalletOptions {
  /** Directory of the key files. */
  readonly dir: string;
  readonly scrypt: ScryptParams;
  /** Keys that are always unlocked and never stored (regtest development accounts), listed first in this order. */
  readonly devKeys: readonly Uint8Array[];
  /** Clock for unlock expiry (tests pass their own). */
  readonly now?: () => number;
}

interface Unlocked {
  readonly key: Uint8Array;
  /** Undefined: until locked or the node stops. */
  readonly untilMs: number | undefined;
  readonly timer?: NodeJS.Timeout;
}

const addressOf = (key: Uint8Array) => bytesToHex(addressOfPrivateKey(key)) as Hex;
const invalid = (message: string) => new NodeError('INVALID_PARAMS', message);

export class Wallet {
  readonly #keystore: Keystore;
  readonly #scrypt: ScryptParams;
  readonly #now: () => number;
  /** Development and seed accounts: always unlocked. */
  readonly #open = new Map<Hex, Uint8Array>();
  readonly #unlocked = new Map<Hex, Unlocked>();
  /** Listing order: development accounts, then key files by creation, then accounts added since. */
  readonly #order: Hex[] = [];

  constructor(opts: WalletOptions) {
    this.#keystore = new Keystore(opts.dir);
    this.#scrypt = opts.scrypt;
    this.#now = opts.now ?? Date.now;
    for (const key of opts.devKeys) this.#addOpen(key);
    for (const a of this.#keystore.addresses()) this.#list(a);
  }

  /** Every account held, locked or not (eth_accounts, personal_listAccounts). */
  accounts(): Hex[] {
    return [...this.#order];
  }

  isUnlocked(address: Hex): boolean {
    return this.#key(address) !== undefined;
  }

  async newAccount(passphrase: string): Promise<Hex> {
    let key: Uint8Array;
    do key = new Uint8Array(randomBytes(32)); while (!secp256k1.privateKeyVerify(key));
    return this.#store(key, passphrase);
  }

  /** Key = keccak256(UTF-8 seed), as the reference; unlocked with no expiry and not written to disk. */
  newAccountWithSeed(seed: string): Hex {
    return this.#addOpen(keccak256(utf8ToBytes(seed)));
  }

  async importRawKey(key: Uint8Array, passphrase: string): Promise<Hex> {
    if (key.length !== 32 || !secp256k1.privateKeyVerify(key)) throw invalid('invalid private key: expected 32 bytes, non-zero and below the secp256k1 order');
    return this.#store(new Uint8Array(key), passphrase);
  }

  /**
   * Decrypts the account's key file and keeps the key for `durationMs` (the reference default when
   * undefined; 0 means until locked). False for an account without a key file (always unlocked).
   */
  async unlock(address: Hex, passphrase: string, durationMs: number = DEFAULT_UNLOCK_MS): Promise<boolean> {
    this.#require(address);
    if (!this.#keystore.has(address)) return false;
    const key = await this.#decrypt(address, passphrase);
    this.lock(address);
    const untilMs = durationMs > 0 ? this.#now() + durationMs : undefined;
    // Longer than a timer waits, no timer wipes the key; the expiry is still checked on each use.
    const timer = durationMs > 0 && durationMs <= MAX_TIMER_MS ? setTimeout(() => this.#expire(address), durationMs).unref() : undefined;
    this.#unlocked.set(address, { key, untilMs, timer });
    return true;
  }

  /** True if the account was unlocked (and now is not); accounts without a key file stay unlocked. */
  lock(address: Hex): boolean {
    this.#require(address);
    const u = this.#unlocked.get(address);
    if (!u) return false;
    this.#unlocked.delete(address);
    clearTimeout(u.timer);
    u.key.fill(0);
    return u.untilMs === undefined || u.untilMs > this.#now();
  }

  dumpRawKey(address: Hex): Hex {
    return bytesToHex(this.#unlockedKey(address)) as Hex;
  }

  /** eth_sign: over keccak256("\x19Ethereum Signed Message:\n" + length + message); r ‖ s ‖ v with v 27/28. */
  signMessage(address: Hex, message: Uint8Array): Uint8Array {
    const digest = keccak256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`), message));
    const { signature, recid } = secp256k1.ecdsaSign(digest, this.#unlockedKey(address));
    return concatBytes(signature, uintBytes(27 + recid));
  }

  /** Signs with an unlocked key or, given a passphrase, with the key file decrypted for this one signature. */
  async signTransaction(address: Hex, tx: LegacyTx, passphrase?: string): Promise<TypedTransaction> {
    if (passphrase === undefined || !this.#keystore.has(address)) return tx.sign(this.#unlockedKey(address));
    const key = await this.#decrypt(address, passphrase);
    try {
      return tx.sign(key);
    } finally {
      key.fill(0);
    }
  }

  async #store(key: Uint8Array, passphrase: string): Promise<Hex> {
    const address = addressOf(key);
    if (this.#keystore.has(address)) throw invalid(`account ${address} already exists in the keystore`);
    const file = await encryptKey(key, passphrase, this.#scrypt);
    if (this.#keystore.has(address)) throw invalid(`account ${address} already exists in the keystore`);
    this.#keystore.write(file);
    this.#list(address);
    // Reference: a new or imported account starts unlocked for the default duration.
    this.#unlocked.set(address, { key, untilMs: this.#now() + DEFAULT_UNLOCK_MS, timer: setTimeout(() => this.#expire(address), DEFAULT_UNLOCK_MS).unref() });
    return address;
  }

  #addOpen(key: Uint8Array): Hex {
    const address = addressOf(key);
    this.#open.set(address, key);
    this.#list(address);
    return address;
  }

  #list(address: Hex) {
    if (!this.#order.includes(address)) this.#order.push(address);
  }

  #require(address: Hex) {
    if (!this.#order.includes(address)) throw invalid(`unknown account ${address}: this node holds no key for it`);
  }

  async #decrypt(address: Hex, passphrase: string): Promise<Uint8Array> {
    try {
      return await decryptKey(this.#keystore.read(address)!, passphrase);
    } catch (err) {
      if (err instanceof WrongPassphraseError) throw invalid(`could not decrypt the key of ${address}: wrong passphrase`);
      throw err;
    }
  }

  #expire(address: Hex) {
    const u = this.#unlocked.get(address);
    if (u?.untilMs !== undefined && u.untilMs <= this.#now()) this.lock(address);
  }

  #key(address: Hex): Uint8Array | undefined {
    const open = this.#open.get(address);
    if (open) return open;
    const u = this.#unlocked.get(address);
    if (u && (u.untilMs === undefined || u.untilMs > this.#now())) return u.key;
    return undefined;
  }

  #unlockedKey(address: Hex): Uint8Array {
    this.#require(address);
    const key = this.#key(address);
    if (!key) throw invalid(`account ${address} is locked: unlock it with personal_unlockAccount first`);
    return key;
  }
}

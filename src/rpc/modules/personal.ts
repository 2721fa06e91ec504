/**
 * personal_* (README "Accounts and keystore"): the node's accounts and their encrypted keystore. Wrong
 * passphrases, unknown accounts and malformed keys are -32602 with the reason, and change nothing.
 */
import type { Wallet } from '../../accounts/wallet.ts';
import { fromHex, hex } from '../../chain/codec/bytes.ts';
import type { RpcDeps } from '../deps.ts';
import { invalidParams } from '../errors.ts';
import { method } from '../method.ts';
import { address, optional, text, txArgs, type Param } from '../params.ts';
import { submitTx, unsignedTx } from '../transactions.ts';

/** A private key: 64 hex digits, with or without 0x (as the reference accepts it). */
const rawKey: Param<Uint8Array> = (raw, name) => {
  if (typeof raw !== 'string' || !/^(0x)?[0-9a-fA-F]{64}$/.test(raw)) {
    throw invalidParams(`invalid argument ${name}: expected a 32-byte private key (64 hex digits, 0x optional)`);
  }
  return fromHex(raw.startsWith('0x') ? raw : `0x${raw}`);
};

/**
 * Unlock duration in milliseconds: a hex string counts milliseconds (the reference), a JSON number
 * counts seconds (geth's convention, which web3.js follows). 0 keeps the account unlocked until locked.
 */
const duration: Param<number> = (raw, name) => {
  if (typeof raw === 'string' && /^0x[0-9a-fA-F]{1,13}$/.test(raw)) return Number(BigInt(raw));
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return raw * 1000;
  throw invalidParams(`Invalid duration param (argument ${name}): value must be a valid hex number of milliseconds, or a number of seconds`);
};

export const personalModule = (wallet: Wallet, deps: Pick<RpcDeps, 'reader' | 'txpool' | 'pending' | 'miner' | 'inclusions'>) => ({
  personal_newAccount: method([['passphrase', text]], ([passphrase]) => wallet.newAccount(passphrase)),
  personal_newAccountWithSeed: method([['seed', text]], ([seed]) => wallet.newAccountWithSeed(seed)),
  personal_importRawKey: method([['key', rawKey], ['passphrase', text]], ([key, passphrase]) => wallet.importRawKey(key, passphrase)),
  personal_dumpRawKey: method([['address', address]], ([a]) => wallet.dumpRawKey(hex(a))),
  personal_listAccounts: method([], () => wallet.accounts()),
  personal_unlockAccount: method(
    [['address', address], ['passphrase', text], ['duration', optional<number | undefined>(duration, undefined)]],
    ([a, passphrase, ms]) => wallet.unlock(hex(a), passphrase, ms),
  ),
  personal_lockAccount: method([['address', address]], ([a]) => wallet.lock(hex(a))),
  /** Signs with the key file decrypted for this one transaction: the account stays as locked as it was. */
  personal_sendTransaction: method([['transaction', txArgs], ['passphrase', text]], async ([args, passphrase]) => {
    const { from, tx } = await unsignedTx(deps, args, 'personal_sendTransaction');
    return submitTx(deps, await wallet.signTransaction(from, tx, passphrase));
  }),
});

/**
 * eth_sign and eth_sendTransaction: signed by the node's unlocked accounts (README "Accounts and keystore"),
 * or sent as an impersonated account (docs/rpc-compatibility.md "Account impersonation").
 */
import type { Wallet } from '../../../accounts/wallet.ts';
import { hex } from '../../../chain/codec/bytes.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';
import { address, data, txArgs } from '../../params.ts';
import { impersonatedTx } from '../../impersonation.ts';
import { submitTx, unsignedTx } from '../../transactions.ts';

export const ethWalletMethods = (wallet: Wallet, deps: Pick<RpcDeps, 'reader' | 'txpool' | 'pending' | 'impersonated' | 'miner' | 'inclusions'>) => ({
  eth_sign: method([['address', address], ['message', data]], ([a, message]) => hex(wallet.signMessage(hex(a), message))),
  /** Signed by the account's key, or, for an impersonated account the wallet holds no key of, with the impersonation marker. */
  eth_sendTransaction: method([['transaction', txArgs]], async ([args]) => {
    const { from, tx } = await unsignedTx(deps, args, 'eth_sendTransaction');
    const impersonated = deps.impersonated?.covers(from) && !wallet.accounts().includes(from);
    return submitTx(deps, impersonated ? impersonatedTx(tx, from) : await wallet.signTransaction(from, tx));
  }),
});

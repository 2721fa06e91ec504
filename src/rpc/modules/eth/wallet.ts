/**
 * eth_sign, eth_sendTransaction and eth_sendTransactionSync: signed by the node's unlocked accounts (README "Accounts and keystore"),
 * or sent as an impersonated account (docs/rpc-compatibility.md "Account impersonation").
 */
import type { Wallet } from '../../../accounts/wallet.ts';
import { hex } from '../../../chain/codec/bytes.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';
import { address, data, index, optional, txArgs, type TxArgs } from '../../params.ts';
import { impersonatedTx } from '../../impersonation.ts';
import { submitTx, submitTxAndWait, syncWaitMs, unsignedTx } from '../../transactions.ts';

export const ethWalletMethods = (wallet: Wallet, deps: Pick<RpcDeps, 'reader' | 'txpool' | 'pending' | 'impersonated' | 'miner' | 'inclusions'>) => {
  /** Signed by the account's key, or, for an impersonated account the wallet holds no key of, with the impersonation marker. */
  const signed = async (args: TxArgs, name: string) => {
    const { from, tx } = await unsignedTx(deps, args, name);
    const impersonated = deps.impersonated?.covers(from) && !wallet.accounts().includes(from);
    return impersonated ? impersonatedTx(tx, from) : wallet.signTransaction(from, tx);
  };
  return {
    eth_sign: method([['address', address], ['message', data]], ([a, message]) => hex(wallet.signMessage(hex(a), message))),
    eth_sendTransaction: method([['transaction', txArgs]], async ([args]) => submitTx(deps, await signed(args, 'eth_sendTransaction'))),
    /** EIP-7966's send for the node's accounts: the receipt once the block is stored (docs/rpc-compatibility.md "Sync sends"). */
    eth_sendTransactionSync: method([['transaction', txArgs], ['timeout', optional(index, 0)]], async ([args, waitMs], ctx) =>
      submitTxAndWait(deps, await signed(args, 'eth_sendTransactionSync'), syncWaitMs(waitMs), ctx.signal)),
  };
};

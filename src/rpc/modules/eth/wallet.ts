/** eth_sign and eth_sendTransaction: signed by the node's unlocked accounts (README "Accounts and keystore"). */
import type { Wallet } from '../../../accounts/wallet.ts';
import { hex } from '../../../chain/codec/bytes.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';
import { address, data, txArgs } from '../../params.ts';
import { submitTx, unsignedTx } from '../../transactions.ts';

export const ethWalletMethods = (wallet: Wallet, deps: Pick<RpcDeps, 'reader' | 'txpool' | 'pending' | 'miner' | 'inclusions'>) => ({
  eth_sign: method([['address', address], ['message', data]], ([a, message]) => hex(wallet.signMessage(hex(a), message))),
  eth_sendTransaction: method([['transaction', txArgs]], async ([args]) => {
    const { from, tx } = await unsignedTx(deps, args, 'eth_sendTransaction');
    return submitTx(deps, await wallet.signTransaction(from, tx));
  }),
});

/**
 * A node that holds no keys (hosted mode, testnet, mainnet) has no wallet, as the reference's
 * wallet-disabled modules (README "Accounts and keystore"): eth_accounts is [] by itself, and signing
 * methods refuse with a reason instead of looking for a key.
 */
import { INVALID_PARAMS, RpcError, WALLET_DISABLED } from '../errors.ts';
import { refusing, type Methods } from '../method.ts';

const PERSONAL = [
  'personal_dumpRawKey', 'personal_importRawKey', 'personal_listAccounts', 'personal_lockAccount', 'personal_newAccountWithSeed',
  'personal_newAccount', 'personal_sendTransaction', 'personal_unlockAccount',
];

export function walletDisabledMethods(): Methods {
  const noWallet = refusing(() => new RpcError(INVALID_PARAMS,
    'Local wallet is disabled in this node: it holds no keys. Sign transactions yourself and send them with eth_sendRawTransaction'));
  const noPersonal = refusing(() => new RpcError(WALLET_DISABLED, 'The local wallet feature is disabled: this node holds no keys'));
  return {
    eth_sign: noWallet,
    eth_sendTransaction: noWallet,
    eth_sendTransactionSync: noWallet,
    ...Object.fromEntries(PERSONAL.map((name) => [name, noPersonal])),
  };
}

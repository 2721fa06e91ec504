/**
 * A plain value transfer applied to the state directly (docs/performance.md "Plain transfers"): a
 * transaction with no data sent to an account without code moves value and fees and runs no EVM, yet
 * the library's runTx sets up a call frame, a journal, warm sets and a receipt's bloom for it. Only a
 * transfer whose outcome is plain success takes this way: every check the library makes must pass, and
 * whatever is less ordinary (a precompile or contract as recipient, the sender or recipient being the
 * coinbase or each other, an empty account touched and so deleted) runs through the library instead, as
 * does every failure, so that its error is the library's.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, type Address, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import type { VM } from '@ethereumjs/vm';
import type { MerkleStateManager } from '@ethereumjs/statemanager';
import { effectiveGasPrice, maxGasPrice } from './txPrice.ts';

const hasCode = (account: Account) => !equalsBytes(account.codeHash, KECCAK256_NULL);

/** Applies `tx` if it is a plain transfer that succeeds; returns the gas it used, or undefined (nothing changed) otherwise. */
export async function applyPlainTransfer(vm: VM, state: MerkleStateManager, tx: TypedTransaction, coinbase: Address): Promise<bigint | undefined> {
  const to = tx.to;
  if (to === undefined || tx.data.length !== 0 || vm.evm.precompiles.has(to.toString().slice(2))) return undefined;
  const gas = tx.getIntrinsicGas();
  if (tx.gasLimit < gas) return undefined;
  const caller = tx.getSenderAddress();
  if (caller.equals(to) || caller.equals(coinbase) || to.equals(coinbase)) return undefined;
  const sender = await state.getAccount(caller);
  if (!sender || hasCode(sender) || sender.nonce !== tx.nonce) return undefined;
  const price = effectiveGasPrice(tx);
  const value = tx.value;
  if (sender.balance < value + tx.gasLimit * maxGasPrice(tx)) return undefined;
  const recipient = (await state.getAccount(to)) ?? new Account();
  if (hasCode(recipient) || (value === 0n && recipient.isEmpty())) return undefined;
  const fee = gas * price;
  const miner = (await state.getAccount(coinbase)) ?? new Account();
  if (fee === 0n && miner.isEmpty()) return undefined;
  sender.balance -= fee + value;
  sender.nonce += 1n;
  recipient.balance += value;
  miner.balance += fee;
  await state.putAccount(caller, sender);
  await state.putAccount(to, recipient);
  await state.putAccount(coinbase, miner);
  return gas;
}

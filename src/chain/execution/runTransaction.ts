/**
 * One transaction on a VM, as the library's runTx runs it, except that an impersonated sender may hold
 * code (docs/rpc-compatibility.md "Account impersonation"). A test that impersonates a contract (a
 * multisig, a token, a timelock) sends as it on Hardhat and Anvil, which skip EIP-3607's "the sender holds
 * no code" check for impersonated accounts. runTx has no such switch, so for that transaction the
 * sender's code hash is set aside while it runs and put back after it; the code itself stays stored. The
 * block import and a trace's replay run the same function, so every node computes the same state.
 */
import { Account, type Address, equalsBytes, KECCAK256_NULL } from '@ethereumjs/util';
import { runTx, type RunTxOpts, type RunTxResult, type VM } from '@ethereumjs/vm';
import { impersonatedAddress } from '../codec/impersonation.ts';

export function runTransaction(vm: VM, opts: RunTxOpts): Promise<RunTxResult> {
  const sender = impersonatedAddress(vm.common, opts.tx);
  return sender ? runImpersonated(vm, opts, sender) : runTx(vm, opts);
}

async function runImpersonated(vm: VM, opts: RunTxOpts, sender: Address): Promise<RunTxResult> {
  const state = vm.stateManager;
  const account = await state.getAccount(sender);
  if (!account || equalsBytes(account.codeHash, KECCAK256_NULL)) return runTx(vm, opts);
  await state.putAccount(sender, new Account(account.nonce, account.balance, account.storageRoot, KECCAK256_NULL));
  try {
    return await runTx(vm, opts);
  } finally {
    const after = await state.getAccount(sender);
    if (after) await state.putAccount(sender, new Account(after.nonce, after.balance, after.storageRoot, account.codeHash));
  }
}

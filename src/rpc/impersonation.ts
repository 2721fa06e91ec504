/**
 * The accounts eth_sendTransaction sends as without their keys (hardhat_impersonateAccount and Anvil's
 * names; docs/rpc-compatibility.md "Account impersonation"). In memory, as in Hardhat and Anvil; only
 * where the developer controls are served.
 */
import { createLegacyTx, type LegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { fromHex, type Hex } from '../chain/codec/bytes.ts';
import { markerSignature } from '../chain/codec/impersonation.ts';
import { txFromBytes } from '../chain/codec/txEncoding.ts';

export class ImpersonatedAccounts {
  readonly #addresses = new Set<Hex>();
  /** anvil_autoImpersonateAccount: every account. */
  #everyone = false;

  start(address: Hex): void {
    this.#addresses.add(address);
  }

  /** True if the account was impersonated. */
  stop(address: Hex): boolean {
    return this.#addresses.delete(address);
  }

  setEveryone(on: boolean): void {
    this.#everyone = on;
  }

  covers(address: Hex): boolean {
    return this.#everyone || this.#addresses.has(address);
  }

  clear(): void {
    this.#addresses.clear();
    this.#everyone = false;
  }
}

/** `tx` sent by `from` with the impersonation marker for a signature (EIP-155, on the transaction's chain). */
export function impersonatedTx(tx: LegacyTx, from: Hex): TypedTransaction {
  const { common } = tx;
  const marked = createLegacyTx({
    nonce: tx.nonce, gasPrice: tx.gasPrice, gasLimit: tx.gasLimit, to: tx.to, value: tx.value, data: tx.data,
    v: common.chainId() * 2n + 35n, ...markerSignature(fromHex(from)),
  }, { common });
  // Decoded again, so the sender is the one the marker names, as everywhere else that reads it.
  return txFromBytes(marked.serialize(), common);
}

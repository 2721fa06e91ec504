/**
 * Accounts encoded in one allocation (docs/rpc-workers.md, "Calls"). A transaction or call writes its
 * sender's account twice and its recipient's once (the nonce, then the value, even a zero one), and the
 * library's caches keep every account as its RLP: `Account.serialize` turns both numbers into bytes
 * through hex text, encodes each of the four items into an array of its own and joins them (2.8 µs an
 * account). The chain's own encoder gives the same bytes in about 1 µs. Every VM the node makes
 * (createExecutionVM: block execution, calls, traces) encodes so. An account whose numbers are negative
 * is left to the library's encoding.
 */
import { Account } from '@ethereumjs/util';
import { uintBytes } from './bytes.ts';
import { encodeRlp } from './rlp.ts';

let patched = false;

/** Makes every Account of this thread serialize so (once: later calls change nothing). */
export function encodeAccountsInOnePass(): void {
  if (patched) return;
  patched = true;
  const library = Account.prototype.serialize;
  Account.prototype.serialize = function (this: Account): Uint8Array {
    // The getters throw for a field not loaded, as the library's own encoding does.
    const { nonce, balance, storageRoot, codeHash } = this;
    if (nonce < 0n || balance < 0n) return library.call(this);
    return encodeRlp([uintBytes(nonce), uintBytes(balance), storageRoot, codeHash]);
  };
}

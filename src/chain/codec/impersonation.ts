/**
 * Impersonated transactions, a regtest chain rule (docs/rpc-compatibility.md "Account impersonation"):
 * a development node sends as an account whose key it lacks by signing with a marker instead of a key.
 * The marker is s = 1 with the sender's address as r (below 2^160). Nobody knows a key whose signature
 * looks so, and recovering it names an account nobody holds, so on a Common that allows impersonation the
 * marker means "sent by the address r". Every node of the chain reads it from the bytes alone: the pool's
 * journal, a restart, a peer importing the block, a trace replaying it.
 */
import type { Common } from '@ethereumjs/common';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Address, bigIntToBytes, bytesToBigInt, setLengthLeft } from '@ethereumjs/util';

const MARKER_S = 1n;
const ADDRESS_LIMIT = 2n ** 160n;
const ALLOWED = Symbol('impersonation allowed');

/** Lets transactions decoded with `common` (and its copies) carry the marker: regtest's Common. */
export function allowImpersonation(common: Common): void {
  Object.defineProperty(common, ALLOWED, { value: true });
}

export const impersonationAllowed = (common: Common): boolean => (common as unknown as Record<symbol, unknown>)[ALLOWED] === true;

/** The signature fields that say "sent by `sender`". */
export const markerSignature = (sender: Uint8Array) => ({ r: bytesToBigInt(sender), s: MARKER_S });

/** The address the marker names, or undefined for a transaction signed with a key. */
export function impersonatedSender(tx: TypedTransaction): Uint8Array | undefined {
  if (tx.s !== MARKER_S || tx.r === undefined || tx.r >= ADDRESS_LIMIT) return undefined;
  return setLengthLeft(bigIntToBytes(tx.r), 20);
}

/** The sender a transaction decoded with `common` has by its marker; undefined for any other transaction. */
export function impersonatedAddress(common: Common, tx: TypedTransaction): Address | undefined {
  const sender = impersonationAllowed(common) ? impersonatedSender(tx) : undefined;
  return sender && new Address(sender);
}

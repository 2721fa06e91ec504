/**
 * Impersonated transactions, a regtest chain rule (docs/rpc-compatibility.md "Account impersonation"):
 * a development node sends as an account whose key it lacks by signing with a marker instead of a key.
 * The marker is s = 1 with the sender's address as r (below 2^160). Nobody knows a key whose signature
 * looks so, and recovering it names an account nobody holds, so on a Common that allows impersonation the
 * marker means "sent by the address r". Every node of the chain reads it from the bytes alone: the pool's
 * journal, a restart, a peer importing the block, a trace replaying it.
 */
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
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

/**
 * Decodes `raw` as a marked transaction where `common` allows the marker: its sender is the address the
 * marker names. Undefined for any other transaction.
 */
export function decodeImpersonated(raw: Uint8Array, common: Common, decoded: TypedTransaction): TypedTransaction | undefined {
  const sender = impersonationAllowed(common) ? impersonatedSender(decoded) : undefined;
  if (!sender) return undefined;
  // Decoded unfrozen to take the sender, then frozen as every other transaction is.
  const tx = createTxFromRLP(raw, { common, freeze: false });
  const address = new Address(sender);
  tx.getSenderAddress = () => address;
  Object.freeze(tx);
  return tx;
}

/**
 * A transaction's encoding, kept beside it. @ethereumjs/tx re-encodes on every serialize() (each
 * number through a hex string), and a transaction is encoded again for its block's transactions
 * root, the block's body, gossip and the pool's size rule. Every transaction here is decoded from
 * bytes, which @ethereumjs/rlp accepts only in canonical form: those bytes are its encoding.
 */
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { decodeImpersonated } from './impersonation.ts';
import { keccak256 } from './keccak.ts';

const encodings = new WeakMap<TypedTransaction, Uint8Array>();

export function txFromBytes(raw: Uint8Array, common: Common): TypedTransaction {
  const decoded = createTxFromRLP(raw, { common });
  const tx = decodeImpersonated(raw, common, decoded) ?? decoded;
  encodings.set(tx, raw);
  // Its hash is these bytes' hash: the library's hash() would encode the transaction again first.
  if (Object.isFrozen(tx)) tx.cache.hash = keccak256(raw);
  return tx;
}

export function txBytes(tx: TypedTransaction): Uint8Array {
  let raw = encodings.get(tx);
  if (!raw) encodings.set(tx, (raw = tx.serialize()));
  return raw;
}

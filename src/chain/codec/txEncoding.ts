/**
 * A transaction's encoding, kept beside it. @ethereumjs/tx re-encodes on every serialize() (each
 * number through a hex string), and a transaction is encoded again for its block's transactions
 * root, the block's body, gossip and the pool's size rule. Every transaction here is decoded from
 * bytes, which @ethereumjs/rlp accepts only in canonical form: those bytes are its encoding.
 *
 * Its sender's address is kept too: @ethereumjs/tx hashes the recovered key again (in JavaScript) at
 * every getSenderAddress, which execution, the receipts and the pool each call; here it is hashed
 * once, natively (keccak.ts), or is the address an impersonation marker names.
 *
 * And its data fee: the library sums it as a bigint per byte of data (4,600 additions, and as many
 * bigints to collect, for a token's deployment) where the pool's rules first ask for it.
 */
import type { Common } from '@ethereumjs/common';
import { createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Address } from '@ethereumjs/util';
import { impersonatedAddress } from './impersonation.ts';
import { keccak256 } from './keccak.ts';

const encodings = new WeakMap<TypedTransaction, Uint8Array>();

export function txFromBytes(raw: Uint8Array, common: Common): TypedTransaction {
  // Decoded unfrozen to take the method below, then frozen as the library freezes it.
  const tx = createTxFromRLP(raw, { common, freeze: false });
  let sender = impersonatedAddress(common, tx);
  // The key is 64 bytes (getSenderPublicKey throws otherwise): the address is its hash's last 20.
  tx.getSenderAddress = () => (sender ??= new Address(keccak256(tx.getSenderPublicKey()).subarray(12)));
  Object.freeze(tx);
  encodings.set(tx, raw);
  // Its hash is these bytes' hash: the library's hash() would encode the transaction again first.
  tx.cache.hash = keccak256(raw);
  tx.cache.dataFee = { value: dataFee(tx.data, tx.to === undefined, tx.common), hardfork: tx.common.hardfork() };
  return tx;
}

/**
 * The data fee of a transaction with `data`, as the library's `getDataGas` of a legacy transaction computes it
 * (the other types add their access and authorization lists) and keeps it in `cache.dataFee`: each byte of data
 * at the zero or non-zero price, and a creation's init code at its price per 32-byte word (EIP-3860).
 */
export function dataFee(data: Uint8Array, creation: boolean, common: Common): bigint {
  let zeros = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeros++;
  let fee = BigInt(zeros) * common.param('txDataZeroGas') + BigInt(data.length - zeros) * common.param('txDataNonZeroGas');
  if (creation && common.isActivatedEIP(3860)) fee += common.param('initCodeWordGas') * BigInt(Math.ceil(data.length / 32));
  return fee;
}

export function txBytes(tx: TypedTransaction): Uint8Array {
  let raw = encodings.get(tx);
  if (!raw) encodings.set(tx, (raw = tx.serialize()));
  return raw;
}

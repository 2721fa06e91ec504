/** eth_* state reads at any block (README "Method support"). */
import { getMerkleStateProof } from '@ethereumjs/statemanager';
import { Address, bytesToHex, setLengthLeft } from '@ethereumjs/util';
import { hex, quantity, uintBytes } from '../../../chain/codec/bytes.ts';
import { isPending, stateView } from '../../blocks.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';
import { address, blockSelector, hash32, LATEST, optional, quantity as quantityParam, type BlockSelector } from '../../params.ts';
import { invalidParams } from '../../errors.ts';

export const ethStateMethods = (deps: RpcDeps) => {
  const stateAt = async (sel: BlockSelector) => (await stateView(deps, sel)).state;
  const slotKey = (slot: bigint) => setLengthLeft(uintBytes(slot), 32);
  return {
    eth_getBalance: method([['address', address], ['block', optional(blockSelector, LATEST)]], async ([a, sel]) => {
      const account = await (await stateAt(sel)).getAccount(new Address(a));
      return quantity(account?.balance ?? 0n);
    }),
    eth_getTransactionCount: method([['address', address], ['block', optional(blockSelector, LATEST)]], async ([a, sel]) => {
      // The nonce a new transaction needs: it counts every pending transaction, also those the pending block has no room for.
      if (isPending(sel)) return quantity(await deps.txpool.ask('pool.nextNonce', { sender: hex(a) }));
      const account = await (await stateAt(sel)).getAccount(new Address(a));
      return quantity(account?.nonce ?? 0n);
    }),
    // The block of eth_getCode, eth_getStorageAt (and eth_getProof) is required, unlike eth_getBalance's (docs/rpc-conformance.md "Required parameters").
    eth_getCode: method([['address', address], ['block', blockSelector]], async ([a, sel]) =>
      hex(await (await stateAt(sel)).getCode(new Address(a)))),
    eth_getStorageAt: method(
      [['address', address], ['position', quantityParam], ['block', blockSelector]],
      async ([a, slot, sel]) => {
        if (slot >= 1n << 256n) throw invalidParams('invalid argument 1 (position): must fit in 32 bytes');
        return hex(setLengthLeft(await (await stateAt(sel)).getStorage(new Address(a), slotKey(slot)), 32));
      },
    ),
    eth_getProof: method(
      [['address', address], ['storageKeys', storageKeys], ['block', blockSelector]],
      async ([a, keys, sel]) => {
        const proof = await getMerkleStateProof(await stateAt(sel), new Address(a), keys);
        return {
          ...proof,
          storageProof: proof.storageProof.map((p, i) => ({ ...p, key: bytesToHex(keys[i]!) })),
        };
      },
    ),
  };
};

function storageKeys(raw: unknown, name: string): Uint8Array[] {
  if (!Array.isArray(raw)) throw invalidParams(`invalid argument ${name}: expected an array of 32-byte storage keys`);
  return raw.map((k, i) => {
    if (typeof k === 'string' && /^0x[0-9a-fA-F]{1,64}$/.test(k) && k.length !== 66) return setLengthLeft(uintBytes(BigInt(k)), 32);
    return hash32(k, `${name}[${i}]`);
  });
}

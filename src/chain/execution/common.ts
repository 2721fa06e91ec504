/** The @ethereumjs Common of a chain: the Cancun rule set with native signing, signature recovery and Keccak. */
import { Common, Hardfork, Mainnet, createCustomCommon, type CustomCrypto } from '@ethereumjs/common';
import { randomBytes } from 'node:crypto';
import secp256k1 from 'secp256k1';
import { keccak256 } from '../codec/bytes.ts';
import { allowImpersonation } from '../codec/impersonation.ts';
import type { Network } from './networks.ts';

/** What a Common is made from. */
export type ChainIdentity = Pick<Network, 'name' | 'chainId'>;

function ecrecover(msgHash: Uint8Array, v: bigint, r: Uint8Array, s: Uint8Array, chainId?: bigint): Uint8Array {
  // Typed transactions pass the y-parity (0/1); legacy ones 27/28, or 35 + 2·chainId + parity (EIP-155).
  const recovery = v === 0n || v === 1n ? v : chainId === undefined || v < 35n ? v - 27n : v - (chainId * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('invalid signature v value');
  const sig = new Uint8Array(64);
  sig.set(r.length > 32 ? r.subarray(r.length - 32) : r, 32 - Math.min(r.length, 32));
  sig.set(s.length > 32 ? s.subarray(s.length - 32) : s, 64 - Math.min(s.length, 32));
  return secp256k1.ecdsaRecover(sig, Number(recovery), msgHash, false).subarray(1);
}

/**
 * Signing on the add-on, where @ethereumjs/tx would sign in JavaScript (about 10× slower: eth_sendTransaction
 * paid 0.4 ms for it). It answers in the layout the library reads (`recovered`: the recovery id, then r and
 * s), with RFC 6979 nonces as the library's signer uses, and extra entropy when asked for (a hedged
 * signature: fresh random bytes for `true`, or the bytes given).
 */
function ecsign(msgHash: Uint8Array, privateKey: Uint8Array, opts?: { extraEntropy?: boolean | Uint8Array }): Uint8Array {
  const entropy = opts?.extraEntropy;
  const data = entropy === true ? randomBytes(32) : entropy instanceof Uint8Array ? entropy : undefined;
  const { signature, recid } = secp256k1.ecdsaSign(msgHash, privateKey, data ? { data } : {});
  const out = new Uint8Array(65);
  out[0] = recid;
  out.set(signature, 1);
  return out;
}

/**
 * Common for a network: its chain id, the Cancun rule set, native signing, signature recovery and Keccak. It
 * needs only the network's name and chain id, which a worker thread is handed without loading networks.ts.
 */
export function createChainCommon(network: ChainIdentity): Common {
  const common = createCustomCommon(
    { chainId: Number(network.chainId), name: `mmnode-${network.name}` },
    Mainnet,
    { hardfork: Hardfork.Cancun, customCrypto: { ecrecover, ecsign: ecsign as CustomCrypto['ecsign'], keccak256 } },
  );
  // @ethereumjs/tx copies the Common and re-merges its parameter tables (JSON round trips) for every
  // transaction it builds, about 0.3 ms and 13 kB each. Our hardfork never changes, so the tables of
  // one Common, merged once per table, serve every transaction, VM and block. A copy reads them
  // through its prototype but has its own event emitter, for the listeners of whoever holds it
  // (docs/rpc-workers.md, "The tracing leak").
  const merged = new Set<object>();
  const updateParams = common.updateParams.bind(common);
  common.updateParams = (params) => {
    if (merged.has(params)) return;
    merged.add(params);
    updateParams(params);
  };
  const Emitter = common.events.constructor as new () => Common['events'];
  common.copy = () => Object.assign(Object.create(common) as Common, { events: new Emitter() });
  if (network.name === 'regtest') allowImpersonation(common);
  return common;
}

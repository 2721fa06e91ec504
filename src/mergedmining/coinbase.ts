/** Building a parent-chain coinbase that carries the merged-mining tag (docs/merged-mining.md "The coinbase tag"). */
import { concatBytes } from '@ethereumjs/util';
import { serializeParentTx, type ParentTxOutput } from './parentTx.js';
import { MM_TAG } from './tag.js';

const OP_RETURN = 0x6a;
const OP_PUSHDATA1 = 0x4c;
const OP_PUSHDATA2 = 0x4d;
const OP_TRUE = 0x51;

/** Options of buildTaggedCoinbase. */
export interface TaggedCoinbaseOptions {
  /** Input script (height / extranonce bytes); default a 4-byte zero extranonce push. */
  scriptSig?: Uint8Array;
  /** Data placed in the OP_RETURN payload before the tag (other commitments); default none. */
  prefixBytes?: Uint8Array;
  /** Outputs between the payout and the tag output, which stays last. */
  extraOutputs?: ParentTxOutput[];
}

/** Script pushing `data` after OP_RETURN, with the shortest push opcode for its length. */
function opReturnScript(data: Uint8Array): Uint8Array {
  const n = data.length;
  if (n <= 75) return concatBytes(Uint8Array.of(OP_RETURN, n), data);
  if (n <= 0xff) return concatBytes(Uint8Array.of(OP_RETURN, OP_PUSHDATA1, n), data);
  if (n <= 0xffff) return concatBytes(Uint8Array.of(OP_RETURN, OP_PUSHDATA2, n & 0xff, n >>> 8), data);
  throw new Error(`OP_RETURN payload too long: ${n} bytes`);
}

/**
 * Standard (non-witness) serialization of a coinbase committing to `hashForMergedMining` (32 raw
 * bytes): version 1; one input with the null outpoint (32 zero bytes, index 0xffffffff); outputs
 * = a zero-value OP_TRUE payout, `extraOutputs`, then OP_RETURN `prefixBytes ‖ RSKBLOCK: ‖ hash`;
 * locktime 0. Only the 4 locktime bytes follow the hash, so every tag rule holds after compression.
 */
export function buildTaggedCoinbase(hashForMergedMining: Uint8Array, opts: TaggedCoinbaseOptions = {}): Uint8Array {
  if (hashForMergedMining.length !== 32) throw new Error('hashForMergedMining must be 32 bytes');
  const tagOutput: ParentTxOutput = {
    value: 0n,
    script: opReturnScript(concatBytes(opts.prefixBytes ?? new Uint8Array(0), MM_TAG, hashForMergedMining)),
  };
  return serializeParentTx(
    {
      version: 1,
      inputs: [{
        prevTxid: new Uint8Array(32),
        prevIndex: 0xffffffff,
        script: opts.scriptSig ?? Uint8Array.of(0x04, 0, 0, 0, 0),
        sequence: 0xffffffff,
        witness: [],
      }],
      outputs: [{ value: 0n, script: Uint8Array.of(OP_TRUE) }, ...(opts.extraOutputs ?? []), tagOutput],
      locktime: 0,
    },
    { witness: false },
  );
}

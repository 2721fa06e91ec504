/**
 * Parent-chain (Bitcoin) transactions: parse and serialize in both the legacy form and the BIP144
 * segwit form (marker 0x00, flag 0x01, witness stacks before the locktime), and the txid.
 */
import { concatBytes } from '@ethereumjs/util';
import { ByteReader, u32le, u64le, varBytes, varint } from './codec.js';
import { dsha256 } from './hash.js';

/** One input. `prevTxid` is raw order; `witness` is the input's witness stack (empty when none). */
export interface ParentTxInput {
  prevTxid: Uint8Array;
  prevIndex: number;
  script: Uint8Array;
  sequence: number;
  witness: Uint8Array[];
}

/** One output. `value` is in satoshis. */
export interface ParentTxOutput {
  value: bigint;
  script: Uint8Array;
}

/** A decoded parent-chain transaction; `version` and `locktime` are unsigned 32-bit. */
export interface ParentTx {
  version: number;
  inputs: ParentTxInput[];
  outputs: ParentTxOutput[];
  locktime: number;
}

const SEGWIT_MARKER = 0x00;
const SEGWIT_FLAG = 0x01;

/** True when at least one input carries witness data, i.e. the witness serialization differs. */
export function hasWitness(tx: ParentTx): boolean {
  return tx.inputs.some((input) => input.witness.length > 0);
}

/**
 * Wire bytes of `tx`. With `witness: true` and witness data present, the BIP144 form (what blocks
 * carry); otherwise the legacy form, which is also the txid preimage.
 */
export function serializeParentTx(tx: ParentTx, opts: { witness: boolean }): Uint8Array {
  const segwit = opts.witness && hasWitness(tx);
  const parts: Uint8Array[] = [u32le(tx.version)];
  if (segwit) parts.push(Uint8Array.of(SEGWIT_MARKER, SEGWIT_FLAG));
  parts.push(varint(tx.inputs.length));
  for (const input of tx.inputs) {
    if (input.prevTxid.length !== 32) throw new Error('input prevTxid must be 32 bytes');
    parts.push(input.prevTxid, u32le(input.prevIndex), varBytes(input.script), u32le(input.sequence));
  }
  parts.push(varint(tx.outputs.length));
  for (const output of tx.outputs) parts.push(u64le(output.value), varBytes(output.script));
  if (segwit) {
    for (const input of tx.inputs) {
      parts.push(varint(input.witness.length), ...input.witness.map(varBytes));
    }
  }
  parts.push(u32le(tx.locktime));
  return concatBytes(...parts);
}

/** Reads one transaction at the reader's position (either form). */
export function readParentTx(r: ByteReader): ParentTx {
  const version = r.u32le('tx version');
  let segwit = false;
  if (r.peekU8('tx input count') === SEGWIT_MARKER) {
    r.u8('segwit marker');
    const flag = r.u8('segwit flag');
    if (flag !== SEGWIT_FLAG) throw new Error(`unsupported segwit flag 0x${flag.toString(16)}`);
    segwit = true;
  }
  const inputs: ParentTxInput[] = [];
  const inputCount = r.count('tx input count');
  if (inputCount === 0) throw new Error('transaction has no inputs');
  for (let i = 0; i < inputCount; i++) {
    inputs.push({
      prevTxid: r.bytes(32, `input ${i} prevTxid`),
      prevIndex: r.u32le(`input ${i} prevIndex`),
      script: r.varBytes(`input ${i} script`),
      sequence: r.u32le(`input ${i} sequence`),
      witness: [],
    });
  }
  const outputs: ParentTxOutput[] = [];
  const outputCount = r.count('tx output count');
  for (let i = 0; i < outputCount; i++) {
    outputs.push({ value: r.u64le(`output ${i} value`), script: r.varBytes(`output ${i} script`) });
  }
  if (segwit) {
    for (const [i, input] of inputs.entries()) {
      const items = r.count(`input ${i} witness item count`);
      for (let j = 0; j < items; j++) input.witness.push(r.varBytes(`input ${i} witness item ${j}`));
    }
    // Bitcoin Core rejects the marker when no input has witness data ("superfluous witness record").
    if (!inputs.some((input) => input.witness.length > 0)) throw new Error('segwit marker without witness data');
  }
  return { version, inputs, outputs, locktime: r.u32le('tx locktime') };
}

/** Parses one transaction starting at `offset`; `size` is the number of bytes it occupied. */
export function parseParentTx(bytes: Uint8Array, offset = 0): { tx: ParentTx; size: number } {
  const r = new ByteReader(bytes, offset);
  const tx = readParentTx(r);
  return { tx, size: r.offset - offset };
}

/**
 * Transaction id, raw order: dsha256 of the legacy (non-witness) serialization. Bytes must hold
 * exactly one transaction, in either form.
 */
export function parentTxid(tx: ParentTx | Uint8Array): Uint8Array {
  if (tx instanceof Uint8Array) {
    const parsed = parseParentTx(tx);
    if (parsed.size !== tx.length) throw new Error(`${tx.length - parsed.size} trailing bytes after the transaction`);
    return dsha256(serializeParentTx(parsed.tx, { witness: false }));
  }
  return dsha256(serializeParentTx(tx, { witness: false }));
}

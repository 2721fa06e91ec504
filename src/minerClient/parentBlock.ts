/**
 * A pool's view of merged mining: a parent-chain block whose coinbase carries the work's tag, plus
 * other (made-up) transactions, as a real parent-chain pool block would have.
 */
import { randomBytes } from 'node:crypto';
import {
  buildTaggedCoinbase, merkleRoot, parentTxid, parseParentTx, serializeParentBlock, serializeParentTx,
  type ParentBlock, type ParentTx,
} from '../mergedmining/index.ts';

/** A one-input, one-output transaction spending a random outpoint (segwit-marked when `witness`). */
function otherTransaction(witness: boolean): ParentTx {
  return {
    version: 2,
    inputs: [{ prevTxid: randomBytes(32), prevIndex: 0, script: new Uint8Array(), sequence: 0xfffffffd, witness: witness ? [randomBytes(71), randomBytes(33)] : [] }],
    outputs: [{ value: 50_000n, script: Uint8Array.of(0x00, 0x14, ...randomBytes(20)) }],
    locktime: 0,
  };
}

export interface PoolBlock {
  readonly block: ParentBlock;
  /** Coinbase, standard (non-witness) serialization. */
  readonly coinbase: Uint8Array;
  /** Txids in block order, raw byte order, coinbase first. */
  readonly txids: Uint8Array[];
}

/** A parent block for `hashForMergedMining` with `otherTxs` more transactions, nonce 0. */
export function poolBlock(hashForMergedMining: Uint8Array, otherTxs: number, extraNonce: number): PoolBlock {
  const scriptSig = Uint8Array.of(0x04, ...new Uint8Array(new Uint32Array([extraNonce]).buffer));
  const coinbase = buildTaggedCoinbase(hashForMergedMining, { scriptSig });
  const txs = [parseParentTx(coinbase).tx, ...Array.from({ length: otherTxs }, (_, i) => otherTransaction(i % 2 === 1))];
  const txids = txs.map((tx) => parentTxid(tx));
  return {
    block: {
      header: { version: 0x20000000, prevHash: randomBytes(32), merkleRoot: merkleRoot(txids), time: Math.floor(Date.now() / 1000), bits: 0x207fffff, nonce: 0 },
      txs,
    },
    coinbase: serializeParentTx(txs[0]!, { witness: false }),
    txids,
  };
}

export const blockBytes = (b: PoolBlock, nonce: number) => serializeParentBlock({ ...b.block, header: { ...b.block.header, nonce } });

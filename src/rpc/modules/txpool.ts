/**
 * txpool_* (README "Transaction pool"): the pool by sender (lowercase, no 0x) and nonce (decimal), with
 * the reference's value formats: gas price and value as Java signed bytes, a creation's `to` as 0x00.
 */
import type { PoolTx } from '../../actors/txpool/index.ts';
import { hex, quantity, signedBytes } from '../../chain/codec/bytes.ts';
import type { RpcDeps } from '../deps.ts';
import { ZERO32 } from '../format.ts';
import { method } from '../method.ts';

type BySender<T> = Record<string, Record<string, T[]>>;

function group<T>(txs: readonly PoolTx[], shape: (p: PoolTx) => T): BySender<T> {
  const out: BySender<T> = {};
  for (const p of txs) {
    const bySender = (out[p.sender.slice(2)] ??= {});
    (bySender[p.nonce.toString(10)] ??= []).push(shape(p));
  }
  return out;
}

const content = (p: PoolTx) => ({
  blockHash: ZERO32,
  blockNumber: null,
  transactionIndex: null,
  from: p.sender,
  gas: quantity(p.tx.gasLimit),
  gasPrice: hex(signedBytes(p.gasPrice)),
  hash: p.hash,
  input: hex(p.tx.data),
  nonce: quantity(p.nonce),
  to: p.tx.to ? hex(p.tx.to.bytes) : '0x00',
  value: hex(signedBytes(p.tx.value)),
});

const inspect = (p: PoolTx) =>
  `${p.tx.to ? hex(p.tx.to.bytes).slice(2) : ''}: ${p.tx.value} wei + ${p.tx.gasLimit} x ${p.gasPrice} gas`;

export const txpoolModule = (deps: Pick<RpcDeps, 'txpool'>) => {
  const list = () => deps.txpool.ask('pool.list', {});
  return {
    txpool_content: method([], async () => {
      const { pending, queued } = await list();
      return { pending: group(pending, content), queued: group(queued, content) };
    }),
    txpool_inspect: method([], async () => {
      const { pending, queued } = await list();
      return { pending: group(pending, inspect), queued: group(queued, inspect) };
    }),
    txpool_status: method([], async () => {
      const { pending, queued } = await list();
      return { pending: pending.length, queued: queued.length };
    }),
  };
};

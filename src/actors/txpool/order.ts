/** Inclusion order for a block: nonce order within a sender, the highest gas price first across senders. */
import type { TypedTransaction } from '@ethereumjs/tx';
import type { PoolTx } from './protocol.ts';

/**
 * Merges per-sender runs (each in nonce order) by always taking the best-paying next transaction.
 * A sender whose next transaction does not fit in the gas left is done: its later nonces cannot
 * run without it.
 */
export function inclusionOrder(runs: readonly (readonly PoolTx[])[], maxGas: bigint): TypedTransaction[] {
  const out: TypedTransaction[] = [];
  const cursors = runs.map(() => 0);
  let gas = 0n;
  for (;;) {
    let best = -1;
    for (let i = 0; i < runs.length; i++) {
      const next = runs[i]![cursors[i]!];
      if (next && (best < 0 || next.gasPrice > runs[best]![cursors[best]!]!.gasPrice)) best = i;
    }
    if (best < 0) return out;
    const p = runs[best]![cursors[best]!++]!;
    if (gas + p.tx.gasLimit > maxGas) {
      cursors[best] = runs[best]!.length;
      continue;
    }
    gas += p.tx.gasLimit;
    out.push(p.tx);
  }
}

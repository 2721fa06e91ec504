/**
 * The slice of the bus that live views follow (filters, WebSocket subscriptions): head changes,
 * with the blocks that joined and left the canonical chain, and transactions entering the pending set.
 */
import { bytesToHex } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import type { Block } from '../chain/codec/block.ts';
import { quantity, type Hex } from '../chain/codec/bytes.ts';
import type { NodeEvent } from './events.ts';

export type LiveEvent =
  | { type: 'chain.headChanged'; added: readonly Block[]; removed: readonly Block[] }
  | { type: 'pool.txAdded'; hash: Hex };

/** Bus mapping for subscribers of live events (queued transactions are not announced: README "Logs, filters and WebSocket"). */
export function toLiveEvent(e: NodeEvent): LiveEvent | undefined {
  if (e.type === 'chain.headChanged') return { type: e.type, added: e.added, removed: e.removed };
  if (e.type === 'pool.txAdded' && e.pending) return { type: e.type, hash: bytesToHex(e.tx.hash()) as Hex };
  return undefined;
}

/** A fresh id for a filter or subscription: a QUANTITY of 128 random bits, never zero. */
export const randomId = (): Hex => quantity(BigInt(`0x${randomBytes(16).toString('hex')}`) | 1n);

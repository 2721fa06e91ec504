/** The names a block can be given instead of its number, and the heights they name. */

export type BlockTag = 'latest' | 'earliest' | 'pending' | 'safe' | 'finalized';

/**
 * Confirmations behind `safe` and `finalized` (docs/rpc-compatibility.md "Block tags"): proof-of-work blocks
 * are never final, so these are depths at which a reorg is unlikely, not guarantees.
 */
export const SAFE_DEPTH = 6n;
export const FINALIZED_DEPTH = 12n;

/** The height a tag names on a chain whose head is at `head` (`pending` reads as the head here). */
export function tagHeight(tag: BlockTag, head: bigint): bigint {
  const below = (depth: bigint) => (head > depth ? head - depth : 0n);
  switch (tag) {
    case 'earliest': return 0n;
    case 'safe': return below(SAFE_DEPTH);
    case 'finalized': return below(FINALIZED_DEPTH);
    default: return head;
  }
}

/** Resolving block selectors (spec 2.1) against the chain. */
import { bytesToHex } from '@ethereumjs/util';
import type { Block } from '../chain/block.ts';
import type { ChainReader } from '../chain/reader.ts';
import { NodeError } from '../errors.ts';
import type { BlockSelector } from './params.ts';

/** The block a selector names, or undefined when this node has no such block. */
export async function findBlock(reader: ChainReader, sel: BlockSelector): Promise<Block | undefined> {
  switch (sel.kind) {
    case 'tag':
      // `pending` is the next block built from the pool; until the pool's pending block exists it reads as latest.
      return sel.tag === 'earliest' ? reader.canonicalBlock(0n) : reader.getBlock(reader.head().hash);
    case 'number':
      return reader.canonicalBlock(sel.number);
    case 'hash': {
      const block = await reader.getBlock(sel.hash);
      if (block && sel.requireCanonical && !(await reader.isCanonical(block.hash, block.header.number))) {
        throw new NodeError('BLOCK_NOT_FOUND', `Block with hash ${bytesToHex(sel.hash)} is not canonical and it is required`);
      }
      return block;
    }
  }
}

/** Like findBlock, but a missing block is an error (state reads cannot answer without one). */
export async function requireBlock(reader: ChainReader, sel: BlockSelector): Promise<Block> {
  const block = await findBlock(reader, sel);
  if (block) return block;
  const what = sel.kind === 'hash' ? `with hash ${bytesToHex(sel.hash)}` : sel.kind === 'number' ? `0x${sel.number.toString(16)}` : sel.tag;
  throw new NodeError('BLOCK_NOT_FOUND', `Block ${what} not found`);
}

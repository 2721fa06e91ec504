/**
 * The checks a block must pass to be imported (node-behaviour.md §9–§10, merged-mining.md §3): its
 * header against its parent's (number, time, gas limit, minimum gas price, difficulty), its uncles,
 * its merged-mining proof, and after execution the header's roots and totals against the execution's.
 * Each failure throws InvalidBlockError with the reason.
 */
import { bytesToHex, equalsBytes } from '@ethereumjs/util';
import { verifyMergedMiningProof } from '../mergedmining/index.ts';
import type { Block } from './codec/block.ts';
import { headerHash, unclesHashOf, type BlockHeader } from './codec/header.ts';
import { InvalidBlockError, type ExecutionResult } from './execution/blockRunner.ts';
import { gasLimitProblem, minimumGasPriceProblem, nextDifficulty } from './execution/rules.ts';
import type { MergedMiningHasher } from './mergedMiningHash.ts';
import type { ChainReader } from './reader.ts';

/** Uncle limits (node-behaviour.md §10). */
export const MAX_UNCLES = 10;
export const UNCLE_GENERATION_LIMIT = 7n;

const fail = (msg: string): never => { throw new InvalidBlockError(msg); };

export class BlockValidator {
  constructor(private readonly reader: ChainReader, private readonly hasher: MergedMiningHasher) {}

  /** Everything but execution: the header against `parent`, the uncles, the merged-mining proof (`baseHash`: the header's mergedMiningBaseHash). */
  async checkHeader(block: Block, parent: BlockHeader, baseHash: Uint8Array): Promise<void> {
    const h = block.header;
    const net = this.reader.network;
    if (h.number !== parent.number + 1n) fail(`block number ${h.number} does not follow its parent ${parent.number}`);
    if (h.timestamp <= parent.timestamp) fail('block timestamp must be after its parent');
    if (net.name !== 'regtest' && h.timestamp > BigInt(Math.floor(Date.now() / 1000)) + 540n) fail('block timestamp is too far in the future');
    const gasProblem = gasLimitProblem(parent.gasLimit, h.gasLimit);
    if (gasProblem) fail(gasProblem);
    const priceProblem = minimumGasPriceProblem(parent.minimumGasPrice, h.minimumGasPrice);
    if (priceProblem) fail(priceProblem);
    if (h.uncleCount !== block.uncles.length) fail(`uncle count ${h.uncleCount} does not match the ${block.uncles.length} uncles`);
    if (!equalsBytes(h.unclesHash, unclesHashOf(block.uncles))) fail('uncles hash mismatch');
    const uncleProblem = await this.unclesProblem(h.parentHash, h.number, block.uncles);
    if (uncleProblem) fail(uncleProblem);
    const expectedDifficulty = nextDifficulty(net, parent, h.timestamp, h.uncleCount);
    if (h.difficulty !== expectedDifficulty) fail(`difficulty ${h.difficulty} should be ${expectedDifficulty}`);
    const proof = verifyMergedMiningProof({
      header: h.parentChainHeader, coinbase: h.parentChainCoinbase, proof: h.parentChainMerkleProof,
      hashForMergedMining: await this.hasher.hashForMergedMining(h, baseHash), difficulty: h.difficulty,
    });
    if (!proof.ok) fail(`merged-mining proof: ${proof.reason}`);
  }

  /** The header's transactions, totals and roots are those of the block's execution. */
  checkExecution(block: Block, exec: ExecutionResult): void {
    const h = block.header;
    const checks: [boolean, string][] = [
      [exec.txs.length === block.txs.length, 'not every transaction executed'],
      // The execution's transactions root is that of block.txs (all of them run, in order).
      [equalsBytes(exec.transactionsRoot, h.transactionsRoot), 'transactions root mismatch'],
      [exec.gasUsed === h.gasUsed, `gas used ${h.gasUsed} should be ${exec.gasUsed}`],
      [exec.paidFees === h.paidFees, `paid fees ${h.paidFees} should be ${exec.paidFees}`],
      [equalsBytes(exec.stateRoot, h.stateRoot), 'state root mismatch'],
      [equalsBytes(exec.receiptsRoot, h.receiptsRoot), 'receipts root mismatch'],
      [equalsBytes(exec.logsBloom, h.logsBloom), 'logs bloom mismatch'],
    ];
    for (const [ok, msg] of checks) if (!ok) fail(msg);
  }

  /**
   * Why these uncles may not be included in a block at `number` on `parentHash`, or undefined
   * (node-behaviour.md §10): at most 10, no duplicates, within 7 generations, not an ancestor,
   * not already included by an ancestor, parent on the block's own chain, valid header and proof.
   */
  async unclesProblem(parentHash: Uint8Array, number: bigint, uncles: readonly BlockHeader[]): Promise<string | undefined> {
    if (uncles.length === 0) return undefined;
    if (uncles.length > MAX_UNCLES) return `a block may include at most ${MAX_UNCLES} uncles`;
    const ancestors = new Set<string>();
    const included = new Set<string>();
    let cursor: Uint8Array = parentHash;
    for (let i = 0n; i < UNCLE_GENERATION_LIMIT; i++) {
      const ancestor = await this.reader.getBlock(cursor);
      if (!ancestor) break;
      ancestors.add(bytesToHex(ancestor.hash));
      for (const u of ancestor.uncles) included.add(bytesToHex(headerHash(u)));
      if (ancestor.header.number === 0n) break;
      cursor = ancestor.header.parentHash;
    }
    const seen = new Set<string>();
    for (const u of uncles) {
      const hash = bytesToHex(headerHash(u));
      const which = `uncle ${hash}`;
      if (seen.has(hash)) return `${which} is included twice`;
      seen.add(hash);
      if (u.number >= number || u.number + UNCLE_GENERATION_LIMIT <= number) return `${which} at height ${u.number} is outside the ${UNCLE_GENERATION_LIMIT}-generation window`;
      if (ancestors.has(hash)) return `${which} is an ancestor`;
      if (included.has(hash)) return `${which} was already included`;
      if (!ancestors.has(bytesToHex(u.parentHash))) return `${which} does not descend from this block's chain`;
      const parent = await this.reader.getHeader(u.parentHash);
      if (!parent || u.number !== parent.number + 1n) return `${which} does not follow its parent`;
      const gasProblem = gasLimitProblem(parent.gasLimit, u.gasLimit);
      if (gasProblem) return `${which}: ${gasProblem}`;
      const proof = verifyMergedMiningProof({
        header: u.parentChainHeader, coinbase: u.parentChainCoinbase, proof: u.parentChainMerkleProof,
        hashForMergedMining: await this.hasher.hashForMergedMining(u), difficulty: u.difficulty,
      });
      if (!proof.ok) return `${which} merged-mining proof: ${proof.reason}`;
    }
    return undefined;
  }
}

/** A standalone chain (reader + writer on a temp LevelDB) and hand-sealed blocks, for tests below the node. */
import { rmSync } from 'node:fs';
import { makeBlock, type Block } from '../../src/chain/codec/block.ts';
import { createChainCommon } from '../../src/chain/execution/common.ts';
import { orderedTrieRoot } from '../../src/chain/storage/trieRoot.ts';
import { EMPTY_UNCLES_HASH, type BlockHeader } from '../../src/chain/codec/header.ts';
import { NETWORKS } from '../../src/chain/execution/networks.ts';
import { ChainReader } from '../../src/chain/reader.ts';
import { ChainStore } from '../../src/chain/storage/store.ts';
import { ChainWriter, type Template } from '../../src/chain/writer.ts';
import { buildMergedMiningSeal } from '../../src/mergedmining/index.ts';
import { tempDir } from './node.ts';

export interface TestChain {
  readonly reader: ChainReader;
  readonly writer: ChainWriter;
  /** The header with a merged-mining seal of `hashForMergedMining` (by default, the one its ancestry gives). */
  seal(header: BlockHeader, hashForMergedMining?: Uint8Array): Promise<BlockHeader>;
  /** A sealed block from a template built on the head. */
  sealed(t: Template): Promise<Block>;
  /** An empty block on `parent` (any block, not only the head), sealed. */
  emptyChildOf(parent: Block, timestampStep?: bigint): Promise<Block>;
  close(): Promise<void>;
}

export async function openTestChain(): Promise<TestChain> {
  const dir = tempDir('mmnode-chain-');
  const reader = new ChainReader(new ChainStore(dir), createChainCommon(NETWORKS.regtest), NETWORKS.regtest);
  const writer = new ChainWriter(reader);
  await reader.store.open();
  await writer.init();
  const seal = async (header: BlockHeader, hashForMergedMining?: Uint8Array): Promise<BlockHeader> => {
    const s = buildMergedMiningSeal(hashForMergedMining ?? await writer.hashForMergedMining(header), header.difficulty, {});
    return { ...header, parentChainHeader: s.header, parentChainCoinbase: s.coinbase, parentChainMerkleProof: s.proof };
  };
  return {
    reader, writer, seal,
    sealed: async (t) => makeBlock(await seal(t.header, t.hashForMergedMining), t.txs, t.uncles),
    async emptyChildOf(parent, timestampStep = 1n) {
      const p = parent.header;
      const gasLimit = p.gasLimit - p.gasLimit / 1024n >= 7_500_000n ? p.gasLimit - p.gasLimit / 1024n : 7_500_000n;
      const empty = orderedTrieRoot([]);
      // No transactions, no fees, no subsidy: the state root stays the parent's.
      const header: BlockHeader = {
        ...p, parentHash: parent.hash, number: p.number + 1n, timestamp: p.timestamp + timestampStep, gasLimit,
        transactionsRoot: empty, receiptsRoot: empty, logsBloom: new Uint8Array(256), unclesHash: EMPTY_UNCLES_HASH,
        gasUsed: 0n, paidFees: 0n, uncleCount: 0,
      };
      return makeBlock(await seal(header), []);
    },
    async close() {
      await reader.store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Gas price suggestions and fee history on a chain without a base fee: blocks carry `minimumGasPrice`,
 * which moves 1 % per block toward the miner's target (docs/rpc-compatibility.md "Gas price").
 */
import type { Block } from '../../../chain/codec/block.ts';
import { quantity } from '../../../chain/codec/bytes.ts';
import { nextMinimumGasPrice } from '../../../chain/execution/rules.ts';
import { effectiveGasPrice } from '../../../chain/execution/txPrice.ts';
import { findBlock } from '../../blocks.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';
import { blockNumberOrTag, fail, type Param } from '../../params.ts';

/** eth_gasPrice stays minable this many blocks ahead: as long as the pool keeps a transaction (its default expiry). */
const HEADROOM_BLOCKS = 10;
/** Most blocks one eth_feeHistory request covers (as geth). */
const MAX_FEE_HISTORY_BLOCKS = 1024;
const MAX_PERCENTILES = 100;

/**
 * The reference's head minimum × 1.1, but never below the minimum HEADROOM_BLOCKS blocks ahead when it is
 * rising: the pending block's minimum stepped on as fast as the rules allow.
 */
export function suggestedGasPrice(headMinimum: bigint, pendingMinimum: bigint): bigint {
  let ahead = pendingMinimum;
  if (pendingMinimum > headMinimum) for (let i = 1; i < HEADROOM_BLOCKS; i++) ahead = nextMinimumGasPrice(ahead, ahead * 2n + 1n);
  const reference = (headMinimum * 11n) / 10n;
  return ahead > reference ? ahead : reference;
}

const blockCount: Param<number> = (raw, name) => {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' && /^(0x[0-9a-fA-F]{1,8}|\d{1,8})$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_FEE_HISTORY_BLOCKS) return fail(name, `a block count from 1 to ${MAX_FEE_HISTORY_BLOCKS}`, raw);
  return n;
};

const percentiles: Param<number[] | undefined> = (raw, name) => {
  if (raw === undefined || raw === null) return undefined;
  const expected = `at most ${MAX_PERCENTILES} ascending numbers from 0 to 100`;
  if (!Array.isArray(raw) || raw.length > MAX_PERCENTILES) return fail(name, expected, raw);
  raw.forEach((p, i) => {
    if (typeof p !== 'number' || !(p >= 0 && p <= 100) || (i > 0 && p < raw[i - 1])) fail(name, expected, raw);
  });
  return raw as number[];
};

/**
 * Gas prices at the given percentiles of a block's gas used (geth's walk, with the whole gas price as the
 * tip); for an empty block its minimum, the least a transaction in it would have paid (Foundry prices
 * its EIP-1559 tip from these: docs/rpc-compatibility.md "Gas price").
 */
function rewards(block: Block, gasUsed: readonly bigint[], wanted: readonly number[]): string[] {
  const { txs } = block;
  if (txs.length === 0) return wanted.map(() => quantity(block.header.minimumGasPrice));
  const sorted = txs.map((tx, i) => ({ price: effectiveGasPrice(tx), gas: gasUsed[i] ?? 0n }))
    .sort((a, b) => (a.price < b.price ? -1 : a.price > b.price ? 1 : 0));
  const total = sorted.reduce((sum, t) => sum + t.gas, 0n);
  let i = 0;
  let cumulative = sorted[0]!.gas;
  return wanted.map((p) => {
    const threshold = (total * BigInt(Math.round(p * 100))) / 10_000n;
    while (cumulative < threshold && i < sorted.length - 1) cumulative += sorted[++i]!.gas;
    return quantity(sorted[i]!.price);
  });
}

export const ethFeeMethods = (deps: RpcDeps) => {
  const gasPrice = () => quantity(suggestedGasPrice(deps.reader.head().header.minimumGasPrice, deps.pending.minimumGasPrice()));
  return {
    eth_gasPrice: method([], gasPrice),
    /** No base fee: the whole gas price is the priority fee. */
    eth_maxPriorityFeePerGas: method([], gasPrice),
    /** Base fees are all 0 (there is none); rewards are the blocks' gas prices at the percentiles of their gas used. */
    eth_feeHistory: method([['blockCount', blockCount], ['newestBlock', blockNumberOrTag], ['rewardPercentiles', percentiles]], async ([count, sel, wanted]) => {
      const newest = await findBlock(deps.reader, sel);
      if (!newest) return fail('1 (newestBlock)', 'a block this node has', sel.kind === 'number' ? quantity(sel.number) : sel);
      const oldest = newest.header.number + 1n > BigInt(count) ? newest.header.number + 1n - BigInt(count) : 0n;
      const gasUsedRatio: number[] = [];
      const reward: string[][] = [];
      for (let n = oldest; n <= newest.header.number; n++) {
        const block = n === newest.header.number ? newest : await deps.reader.canonicalBlock(n);
        if (!block) break;
        gasUsedRatio.push(block.header.gasLimit === 0n ? 0 : Number(block.header.gasUsed) / Number(block.header.gasLimit));
        if (wanted) {
          const receipts = (await deps.reader.getReceipts(block.hash)) ?? [];
          reward.push(rewards(block, receipts.map((r) => r.gasUsed), wanted));
        }
      }
      return {
        oldestBlock: quantity(oldest),
        baseFeePerGas: Array.from({ length: gasUsedRatio.length + 1 }, () => '0x0'),
        gasUsedRatio,
        ...(wanted ? { reward } : {}),
      };
    }),
  };
};

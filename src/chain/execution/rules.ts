/** Header rules shared by the miner (to build) and block import (to check). docs/chain.md "Difficulty", "Gas limit", "Minimum gas price". */
import type { Network } from './networks.ts';

/** Difficulty of a block after `parent` (docs/chain.md "Difficulty"; RSKIP97 never active here). */
export function nextDifficulty(net: Network, parent: { difficulty: bigint; timestamp: bigint }, timestamp: bigint, uncleCount: number): bigint {
  const delta = timestamp - parent.timestamp;
  if (net.name !== 'mainnet' && delta >= 600n) return net.minimumDifficulty;
  if (delta < 0n) return parent.difficulty;
  const target = BigInt(1 + uncleCount) * net.durationLimitSec;
  const step = parent.difficulty / net.difficultyDivisor;
  const next = target > delta ? parent.difficulty + step : target < delta ? parent.difficulty - step : parent.difficulty;
  return next > net.minimumDifficulty ? next : net.minimumDifficulty;
}

export const MIN_GAS_LIMIT = 3_000_000n;

/** The miner's gas limit: from the parent toward the target by at most parent/1024 (forcegaslimit). */
export function nextGasLimit(net: Network, parentGasLimit: bigint): bigint {
  const step = parentGasLimit / 1024n;
  if (parentGasLimit > net.targetGasLimit) return parentGasLimit - step > net.targetGasLimit ? parentGasLimit - step : net.targetGasLimit;
  return parentGasLimit + step < net.targetGasLimit ? parentGasLimit + step : net.targetGasLimit;
}

export function gasLimitProblem(parentGasLimit: bigint, gasLimit: bigint): string | undefined {
  if (gasLimit < MIN_GAS_LIMIT) return `gas limit ${gasLimit} is below the minimum ${MIN_GAS_LIMIT}`;
  const low = (parentGasLimit * 1023n) / 1024n;
  const high = (parentGasLimit * 1025n) / 1024n;
  if (gasLimit < low || gasLimit > high) return `gas limit ${gasLimit} is outside [${low}, ${high}] allowed after its parent`;
  return undefined;
}

const minGasPriceStep = (p: bigint) => (p / 100n > 1n ? p / 100n : 1n);

/** The miner's minimum gas price: from the parent's toward the operator's target by at most 1 %. */
export function nextMinimumGasPrice(parent: bigint, target: bigint): bigint {
  const step = minGasPriceStep(parent);
  if (target > parent) return parent + step < target ? parent + step : target;
  if (target < parent) return parent - step > target ? parent - step : target;
  return parent;
}

export function minimumGasPriceProblem(parent: bigint, value: bigint): string | undefined {
  const step = minGasPriceStep(parent);
  const low = parent - step < 0n ? 0n : parent - step;
  if (value < low || value > parent + step) return `minimum gas price ${value} is outside [${low}, ${parent + step}] allowed after its parent`;
  return undefined;
}

/** Header rules: difficulty, gas limit and minimum gas price (docs/chain.md). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import { gasLimitProblem, minimumGasPriceProblem, nextDifficulty, nextGasLimit, nextMinimumGasPrice } from '../../../src/chain/execution/rules.ts';

const Rules = suite('header rules');
const testnet = NETWORKS.testnet;
const d = 1_000_000n;
const parent = { difficulty: d, timestamp: 1_000n };

Rules('difficulty rises when blocks come faster than (1 + uncles) × 14 s, falls when slower', () => {
  assert.is(nextDifficulty(testnet, parent, 1_005n, 0), d + d / 400n);
  assert.is(nextDifficulty(testnet, parent, 1_020n, 0), d - d / 400n);
  assert.is(nextDifficulty(testnet, parent, 1_014n, 0), d);
  assert.is(nextDifficulty(testnet, parent, 1_020n, 1), d + d / 400n, 'an uncle doubles the target interval');
  assert.is(nextDifficulty(testnet, parent, 999n, 0), d, 'a timestamp before the parent keeps it');
  assert.is(nextDifficulty(testnet, parent, 1_600n, 0), testnet.minimumDifficulty, 'ten minutes without a block resets to the minimum');
  assert.is(nextDifficulty(testnet, { difficulty: testnet.minimumDifficulty, timestamp: 0n }, 100n, 0), testnet.minimumDifficulty, 'never below the minimum');
  assert.is(nextDifficulty(NETWORKS.mainnet, { difficulty: 8n * 10n ** 15n, timestamp: 0n }, 700n, 0), 8n * 10n ** 15n - (8n * 10n ** 15n) / 400n, 'mainnet has no ten-minute reset');
});

Rules('regtest difficulty stays at 1', () => {
  assert.is(nextDifficulty(NETWORKS.regtest, { difficulty: 1n, timestamp: 0n }, 1n, 0), 1n);
  assert.is(nextDifficulty(NETWORKS.regtest, { difficulty: 1n, timestamp: 0n }, 100n, 0), 1n);
});

Rules('gas limit moves toward the target by parent/1024 and stays within the band', () => {
  const regtest = NETWORKS.regtest;
  assert.is(nextGasLimit(regtest, 10_000_000n), 10_000_000n - 10_000_000n / 1024n);
  assert.is(nextGasLimit(regtest, 7_500_100n), 7_500_000n);
  assert.is(nextGasLimit(regtest, 7_000_000n), 7_000_000n + 7_000_000n / 1024n);
  assert.is(gasLimitProblem(10_000_000n, 9_990_235n), undefined);
  assert.ok(gasLimitProblem(10_000_000n, 9_000_000n));
  assert.ok(gasLimitProblem(3_000_000n, 2_999_000n));
});

Rules('minimum gas price moves at most 1 % per block', () => {
  assert.is(nextMinimumGasPrice(0n, 1000n), 1n);
  assert.is(nextMinimumGasPrice(1000n, 2000n), 1010n);
  assert.is(nextMinimumGasPrice(1000n, 0n), 990n);
  assert.is(minimumGasPriceProblem(1000n, 1010n), undefined);
  assert.ok(minimumGasPriceProblem(1000n, 1011n));
  assert.is(minimumGasPriceProblem(0n, 1n), undefined);
});

Rules.run();

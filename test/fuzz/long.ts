/**
 * `npm run fuzz [-- --runs-per-method N --runs N --seed S]`: the long pass of the JSON-RPC property tests
 * (test/fuzz/rpc.ts) against a real in-process node; prints the seed so a failure can be replayed.
 */
import { parseArgs } from 'node:util';
import { startTestNode } from '../helpers/node.ts';
import { fuzzNode } from './rpc.ts';

const { values } = parseArgs({ options: { 'runs-per-method': { type: 'string', default: '25' }, runs: { type: 'string', default: '3000' }, seed: { type: 'string' } } });
const seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
console.log(`seed ${seed}`);
const node = await startTestNode({ lightKdf: true });
const startedMs = Date.now();
try {
  await fuzzNode(node, { runsPerMethod: Number(values['runs-per-method']), runs: Number(values.runs), seed, sweepKeys: true, sweepBudgetMs: Infinity, maxHeapGrowth: 128 * 2 ** 20, log: console.log });
  console.log(`passed in ${((Date.now() - startedMs) / 1000).toFixed(0)} s`);
} finally {
  await node.stop();
}

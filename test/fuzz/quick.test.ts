/**
 * A quick pass of the JSON-RPC property tests (test/fuzz/rpc.ts) against a real node, with a fixed seed so the
 * suite gives the same answer on every run; `npm run fuzz` runs a long one on a new seed each time.
 */
import { suite } from 'uvu';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { fuzzNode } from './rpc.ts';

const Fuzz = suite('JSON-RPC fuzz (quick)');
let node: TestNode | undefined;
Fuzz.after(async () => { await node?.stop(); });

Fuzz('every method with hostile params, envelopes, batches and raw bodies: JSON-RPC 2.0 replies, never -32603, the node alive, the heap bounded', async () => {
  node = await startTestNode({ lightKdf: true });
  await fuzzNode(node, { runsPerMethod: 3, runs: 200, seed: 20, sweepKeys: false, sweepBudgetMs: 300, maxHeapGrowth: 64 * 2 ** 20, log: console.log });
});

Fuzz.run();

/**
 * Worker threads get their own young generation (src/threads.ts) in a process started as every launcher
 * starts the node: the main thread keeps the one NODE_RUNTIME_FLAGS give it, a worker started with the
 * node's limits gets a smaller one, and without them it would get the main thread's.
 */
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NODE_RUNTIME_FLAGS } from '../src/config/index.ts';
import { WORKER_YOUNG_GENERATION_MB } from '../src/threads.ts';

const sizes = (mode: 'limits' | 'plain'): { main: number; worker: number } =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', ...NODE_RUNTIME_FLAGS, 'test/fixtures/youngGenerations.ts', mode], { encoding: 'utf8' }));

test('the main thread keeps 16 MB of new space; a worker with the node\'s limits gets at most its young generation', () => {
  const { main, worker } = sizes('limits');
  assert.is(main, 16);
  assert.ok(worker <= WORKER_YOUNG_GENERATION_MB && worker >= 2, `worker new space ${worker} MB`);
});

test('without them the process flag would give the worker the main thread\'s 16 MB', () => {
  assert.equal(sizes('plain'), { main: 16, worker: 16 });
});

test.run();

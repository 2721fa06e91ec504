/**
 * Worker threads get their own young generation (src/threads.ts) in a process started as every launcher
 * starts the node: the main thread keeps the one NODE_RUNTIME_FLAGS give it (16 MB of new space), a worker
 * started with the node's limits gets a smaller one, and without them it would get the main thread's. The
 * sizes are the largest new space each thread had while it kept objects alive across collections.
 */
import { execFileSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { NODE_RUNTIME_FLAGS } from '../src/config/index.ts';
import { WORKER_YOUNG_GENERATION_MB } from '../src/threads.ts';

const sizes = (mode: 'limits' | 'plain'): { main: number; worker: number } =>
  JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', ...NODE_RUNTIME_FLAGS, 'test/fixtures/youngGenerations.ts', mode], { encoding: 'utf8' }));

test('a worker with the node\'s limits has a young generation of at most its own size, smaller than the main thread\'s', () => {
  const { main, worker } = sizes('limits');
  assert.ok(worker <= WORKER_YOUNG_GENERATION_MB, `worker new space ${worker} MB`);
  assert.ok(worker < main, `worker ${worker} MB, main thread ${main} MB`);
});

test('without them the process flag gives the worker the main thread\'s size, above the workers\' own', () => {
  const { main, worker } = sizes('plain');
  assert.ok(worker > WORKER_YOUNG_GENERATION_MB && main > WORKER_YOUNG_GENERATION_MB, `worker ${worker} MB, main thread ${main} MB`);
});

test.run();

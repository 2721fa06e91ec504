/**
 * Tracing keeps no memory: 1,000 block traces (the four-transaction block of test/fixtures/Tracing.sol,
 * call frames and struct logs) leave the heap, after a full collection, where it was, and leave no
 * listener on the node's shared Common (docs/rpc-workers.md, "The tracing leak").
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fromHex } from '../../src/chain/codec/bytes.ts';
import { callFrameTracer } from '../../src/tracing/frames.ts';
import { BlockReplayer } from '../../src/tracing/replay.ts';
import { CollectedTrace } from '../../src/tracing/output.ts';
import { structLogTracer } from '../../src/tracing/structLogger.ts';
import { startTestNode } from '../helpers/node.ts';
import { deployTraceFixture } from '../helpers/traceFixture.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Live heap after full collections (a second one collects what the first one's finalizers released). */
function liveHeap(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const Leak = suite('tracing memory');

Leak('1,000 block traces: the heap does not grow and the shared Common gains no listener', async () => {
  const node = await startTestNode();
  try {
    const f = await deployTraceFixture(node.url);
    const { reader } = node.node;
    const block = (await reader.getBlock(fromHex(f.block.hash)))!;
    const replayer = new BlockReplayer(reader);
    const opts = { disableMemory: false, disableStack: false, disableStorage: false };
    const traceBlock = (i: number) => i % 2
      ? replayer.traceAll(block, () => callFrameTracer(false))
      : replayer.traceAll(block, () => structLogTracer(opts, new CollectedTrace()));
    // Warm-up: caches the reader and the trie keep by design fill up first.
    for (let i = 0; i < 50; i++) assert.is((await traceBlock(i)).length, 4);
    const listeners = reader.common.events.listenerCount('hardforkChanged');
    const before = liveHeap();
    for (let i = 0; i < 1000; i++) await traceBlock(i);
    const grown = liveHeap() - before;
    assert.is(reader.common.events.listenerCount('hardforkChanged'), listeners, 'no EVM stays registered on the shared Common');
    // Leaking, each replay kept its VM, state manager and overlay: about a megabyte per block.
    assert.ok(grown < 16 * 1024 * 1024, `the live heap grew by ${(grown / 1024 / 1024).toFixed(1)} MB over 1,000 traces`);
  } finally {
    await node.stop();
  }
});

Leak.run();

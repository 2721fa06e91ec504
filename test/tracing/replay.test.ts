/** The replayer's admission: two replays run, 32 wait, and the next trace request is refused at once. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Block } from '../../src/chain/codec/block.ts';
import type { ChainReader } from '../../src/chain/reader.ts';
import { NodeError } from '../../src/errors.ts';
import { BlockReplayer } from '../../src/tracing/replay.ts';

const Replay = suite('block replayer');

Replay('past 2 running and 32 waiting replays a trace is refused with LIMIT_EXCEEDED', async () => {
  let started = 0;
  // A reader whose parent lookup never answers keeps every admitted replay running.
  const reader = { getHeader: () => { started++; return new Promise(() => {}); } } as unknown as ChainReader;
  const replayer = new BlockReplayer(reader);
  const block = { header: { parentHash: new Uint8Array(32) }, txs: [{}] } as unknown as Block;
  const tracer = () => ({ listeners: {}, finish: () => null });
  for (let i = 0; i < 34; i++) void replayer.traceAll(block, tracer);
  await new Promise((r) => setImmediate(r));
  assert.is(started, 2, 'two replays run');
  try {
    await replayer.traceAll(block, tracer);
    assert.unreachable('the 35th must be refused');
  } catch (err) {
    assert.instance(err, NodeError);
    assert.is((err as NodeError).kind, 'LIMIT_EXCEEDED');
    assert.match((err as Error).message, /node busy: 2 traces running and 32 waiting/);
  }
  assert.equal(await replayer.traceAll({ ...block, txs: [] }, tracer), [], 'a block without transactions needs no replay');
});

Replay.run();

/**
 * Trace outputs (docs/rpc-workers.md, "Streamed traces"): a streamed trace sends its text in chunks,
 * in order, and waits while too much of it is unacknowledged; a collected one stops at 64 MiB with
 * advice.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NodeError } from '../../src/errors.ts';
import { CHUNK_BYTES, CollectedTrace, MAX_COLLECTED_TRACE_BYTES, STREAM_WINDOW_BYTES, StreamedTrace } from '../../src/tracing/output.ts';

const Output = suite('trace output');

Output('a streamed trace: chunks in order, the writer held past the window until the client catches up', async () => {
  const chunks: Uint8Array[] = [];
  const out = new StreamedTrace((chunk) => chunks.push(chunk));
  const entry = `{"pc":1,"op":"ADD","stack":["0x${'ab'.repeat(40)}"]},`;
  let written = '';
  let waiting: void | Promise<void>;
  do {
    waiting = out.write(entry, 20);
    written += entry;
  } while (!waiting);
  const sent = chunks.reduce((n, c) => n + c.length, 0);
  assert.ok(sent > STREAM_WINDOW_BYTES && sent <= STREAM_WINDOW_BYTES + CHUNK_BYTES, `${sent} bytes sent before the wait`);
  let resumed = false;
  void waiting.then(() => { resumed = true; });
  await Promise.resolve();
  assert.is(resumed, false, 'held while the client is behind');
  out.acknowledge(sent);
  await Promise.resolve();
  assert.ok(resumed, 'resumed once the client caught up');
  out.write('"end"');
  written += '"end"';
  assert.is(Buffer.concat(chunks).toString() + out.finish(), written, 'the chunks and the rest are the text, in order');
});

Output('a collected trace past 64 MiB: -32005 advising the disable flags while the bare steps would fit', () => {
  const out = new CollectedTrace();
  const step = 'x'.repeat(1024);
  let error: unknown;
  try {
    for (let i = 0; i <= MAX_COLLECTED_TRACE_BYTES / step.length; i++) out.write(step, 100);
  } catch (err) {
    error = err;
  }
  assert.instance(error, NodeError);
  assert.is((error as NodeError).kind, 'LIMIT_EXCEEDED');
  assert.match((error as Error).message, /passed 64 MiB after 65537 steps; disableMemory, disableStack and disableStorage make each step smaller/);
});

Output.run();

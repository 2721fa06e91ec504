/** Sync progress: the rate over the last half minute, the time left, and the line the log and the status page show. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { describeProgress, formatDuration, SyncProgress } from '../../../src/actors/blockSync/progress.ts';

const Progress = suite('sync progress');

Progress('rate and time left follow the recent pace', () => {
  const p = new SyncProgress(100n, 10_100n, 0);
  const first = p.report(100n, 0);
  assert.is(first.blocksPerSecond, 0);
  assert.is(first.etaSeconds, undefined, 'unknown before the first block');
  const r = p.report(1_100n, 5_000); // 1000 blocks in 5 s
  assert.is(r.blocksPerSecond, 200);
  assert.is(r.etaSeconds, 45);
  assert.is(describeProgress(r), '#1100 of #10100 (10 %), 200.0 blocks/s, about 45 s left');
  // Samples older than 30 s drop out: a slowdown shows within the window.
  for (let t = 10_000; t <= 60_000; t += 5_000) p.report(1_100n + BigInt(t / 1000), t);
  const slow = p.report(1_161n, 65_000);
  assert.is(slow.blocksPerSecond, (1_161 - 1_135) / 30, 'measured from the sample at 35 s, #1135');
  assert.is(p.report(10_100n, 70_000).etaSeconds, 0);
});

Progress('durations read as seconds, minutes or hours', () => {
  assert.is(formatDuration(45), '45 s');
  assert.is(formatDuration(600), '10 min');
  assert.is(formatDuration(36_000), '10.0 h');
});

Progress.run();

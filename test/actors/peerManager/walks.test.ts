/** When the dialer walks the DHT while below its minimum of peers, pure (docs/network.md "Discovery"). */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WALK_EVERY_MS, WALK_MAX_EVERY_MS, WalkSchedule } from '../../../src/actors/peerManager/walks.ts';

const Walks = suite('random walk schedule');
const T0 = 1_000_000;

/** The times of the walks a dialer ticking every second from T0 to T0 + `seconds` starts, with `peersAt(t)` connected. */
function walksOver(seconds: number, peersAt: (t: number) => number): number[] {
  const w = new WalkSchedule();
  const at: number[] = [];
  for (let t = T0; t <= T0 + seconds * 1000; t += 1000) if (w.take(t, peersAt(t))) at.push((t - T0) / 1000);
  return at;
}

Walks('the first walk is due at once, the next ones every 5 s while the peer count moves', () => {
  assert.equal(walksOver(20, (t) => 1 + Math.floor((t - T0) / 5000)), [0, 5, 10, 15, 20]);
});

Walks('each walk that starts with as many peers as the one before doubles the wait, up to a minute', () => {
  assert.equal(walksOver(400, () => 3), [0, 5, 15, 35, 75, 135, 195, 255, 315, 375]);
  assert.is(WALK_EVERY_MS, 5_000);
  assert.is(WALK_MAX_EVERY_MS, 60_000);
});

Walks('a change of the peer count brings back the 5 s', () => {
  // Three peers for good, one lost at 100 s: the walk after it comes at once, the ones after it 5 s, then 10 s apart again.
  assert.equal(walksOver(130, (t) => (t - T0 < 100_000 ? 3 : 2)), [0, 5, 15, 35, 75, 100, 105, 115]);
});

Walks.run();

/**
 * InclusionWaits (src/rpc/inclusion.ts) on its own: what the requests after an answered send wait for,
 * and that every way a wait ends lets them go.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Hex } from '../../src/chain/codec/bytes.ts';
import { InclusionWaits } from '../../src/rpc/inclusion.ts';

const A = `0x${'aa'.repeat(32)}` as Hex;
const B = `0x${'bb'.repeat(32)}` as Hex;

const Waits = suite('inclusion waits');

Waits('nothing is held without a send that holds; a released wait holds nothing', () => {
  const waits = new InclusionWaits();
  assert.is(waits.settled(), undefined);
  waits.wait(A).release();
  assert.is(waits.settled(), undefined);
});

Waits('held requests go once the held transaction leaves the pool, and later ones are not held', async () => {
  const waits = new InclusionWaits();
  const a = waits.wait(A);
  a.hold();
  const b = waits.wait(B);
  b.hold();
  const held = waits.settled();
  assert.ok(held);
  let gone = false;
  void held!.then(() => { gone = true; });
  waits.ref.tell({ type: 'left', hash: A });
  await Promise.resolve();
  assert.is(gone, false, 'still held by the second send');
  waits.ref.tell({ type: 'left', hash: B });
  await held;
  assert.is(waits.settled(), undefined);
  a.release(); // a release after the end changes nothing
  assert.is(waits.settled(), undefined);
});

Waits('a transaction whose wait ended before its answer holds nothing', () => {
  const waits = new InclusionWaits();
  const a = waits.wait(A);
  waits.ref.tell({ type: 'left', hash: A });
  a.hold();
  assert.is(waits.settled(), undefined);
});

Waits('held requests go after the bound when the transaction stays in the pool', async () => {
  const waits = new InclusionWaits();
  waits.wait(A, 30).hold();
  const started = performance.now();
  await waits.settled();
  assert.ok(performance.now() - started >= 25);
  assert.is(waits.settled(), undefined);
});

Waits('a transaction sent twice is waited for twice: both waits end when it is mined, each alone when released', async () => {
  const waits = new InclusionWaits();
  const first = waits.wait(A);
  first.hold();
  const second = waits.wait(A);
  second.release(); // the second send was refused: its wait ends, the first holds on
  assert.is(await second.ended, 'released');
  const held = waits.settled();
  assert.ok(held, 'the first still holds');
  waits.ref.tell({ type: 'queued', hash: A });
  assert.is(await first.ended, 'queued', 'a fall back to queued ends it, and says so');
  await held;
  assert.is(waits.settled(), undefined);
});

Waits('ended settles with why: the bound passed, or the transaction left the pool', async () => {
  const waits = new InclusionWaits();
  const started = performance.now();
  assert.is(await waits.wait(B, 30).ended, 'timeout');
  assert.ok(performance.now() - started >= 25);
  const a = waits.wait(A);
  waits.ref.tell({ type: 'left', hash: A });
  assert.is(await a.ended, 'left');
});

Waits.run();

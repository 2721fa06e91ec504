/**
 * eth_estimateGas over random call trees (a fixed seed), against the smallest gas limit with which the call
 * succeeds, found by bisection with eth_call. Each contract stores (fresh slots, and zero over zero just above
 * SSTORE's 2,300 floor), burns gas, and calls children that revert the whole call when they fail: with all
 * its gas as Solidity calls (GAS then CALL), with a fixed amount, with value to an account without code (the
 * stipend), or by DELEGATECALL. Success is then monotonic in the limit, so the smallest is well defined.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callSucceeds, post } from '../../../helpers/rpc.ts';
import { random } from '../../../helpers/random.ts';
import { devC, storeChain } from '../../../helpers/storeChain.ts';

const { url, call, stop } = storeChain();
const Trees = suite('eth_estimateGas over random call trees');
Trees.after(stop);

type Target = Contract | 'account';
type Segment =
  | { kind: 'burn'; times: number }
  | { kind: 'store'; slot: number; fresh: boolean }
  | { kind: 'call'; target: Target; gas: 'all' | number; value: boolean; delegate: boolean };
interface Contract { readonly address: string; readonly segments: Segment[] }

let nextAddress = 0;
const newAddress = () => `0x${'e5'.repeat(17)}${(++nextAddress).toString(16).padStart(6, '0')}`;
const ACCOUNT = `0x${'a1'.repeat(20)}`;
const byte = (n: number) => n.toString(16).padStart(2, '0');

function tree(rand: () => number, depth: number): Contract {
  const segments: Segment[] = [];
  const count = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < count; i++) {
    const r = rand();
    if (r < 0.25) segments.push({ kind: 'burn', times: 1 + Math.floor(rand() * 40) });
    else if (r < 0.5) segments.push({ kind: 'store', slot: Math.floor(rand() * 4), fresh: rand() < 0.5 });
    else if (depth < 3) {
      const toAccount = rand() < 0.2;
      const target: Target = toAccount ? 'account' : tree(rand, depth + 1);
      const delegate = !toAccount && rand() < 0.2;
      segments.push({
        kind: 'call', target, delegate, value: !delegate && rand() < 0.4,
        gas: rand() < 0.6 ? 'all' : 10_000 + Math.floor(rand() * 90_000),
      });
    }
  }
  return { address: newAddress(), segments };
}

/** The contract's code: its segments in order, each call reverting the whole when it fails, then STOP. */
function code(c: Contract): string {
  let body = '';
  const failures: number[] = [];
  for (const s of c.segments) {
    if (s.kind === 'burn') body += '5f50'.repeat(s.times);
    else if (s.kind === 'store') body += `${s.fresh ? '6001' : '5f'}60${byte(s.slot)}55`;
    else {
      const to = s.target === 'account' ? ACCOUNT : s.target.address;
      const gas = s.gas === 'all' ? '5a' : `62${s.gas.toString(16).padStart(6, '0')}`;
      body += `5f5f5f5f${s.delegate ? '' : s.value ? '6001' : '5f'}73${to.slice(2)}${gas}${s.delegate ? 'f4' : 'f1'}15`;
      failures.push(body.length / 2 + 1); // PUSH2 <revert>'s operand, filled in below
      body += '610000' + '57';
    }
  }
  const revertAt = body.length / 2 + 1;
  for (const at of failures) body = body.slice(0, at * 2) + revertAt.toString(16).padStart(4, '0') + body.slice(at * 2 + 4);
  return `0x${body}005b5f5ffd`;
}

const contracts = (c: Contract): Contract[] =>
  [c, ...c.segments.flatMap((s) => (s.kind === 'call' && s.target !== 'account' ? contracts(s.target) : []))];
const handsOnFixedGas = (c: Contract): boolean =>
  contracts(c).some((x) => x.segments.some((s) => s.kind === 'call' && s.gas !== 'all'));

const succeeds = async (to: string, gas: bigint) => callSucceeds(await url(), { from: devC, to }, gas);

/** The smallest limit that succeeds, by bisection between a failing and a succeeding one. */
async function smallest(to: string, fails: bigint, works: bigint): Promise<bigint> {
  while (works - fails > 1n) {
    const mid = (fails + works) / 2n;
    if (await succeeds(to, mid)) works = mid;
    else fails = mid;
  }
  return works;
}

Trees('each estimate succeeds, is the smallest where no call hands on a fixed amount, and within 1.5 % of it otherwise', async () => {
  const next = random(0x5eed);
  const rand = () => next(1_000_000) / 1_000_000;
  let checked = 0;
  let exact = 0;
  for (let attempt = 0; attempt < 120 && checked < 40; attempt++) {
    const root = tree(rand, 0);
    if (!root.segments.some((s) => s.kind === 'call')) continue;
    for (const c of contracts(root)) {
      await call('hardhat_setCode', [c.address, code(c)]);
      await call('hardhat_setBalance', [c.address, '0x100']);
    }
    const answer = await post(await url(), JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_estimateGas', params: [{ from: devC, to: root.address }] }));
    // A fixed amount too small for its callee fails with any limit: nothing to estimate.
    if (answer.json.error) continue;
    const estimate = BigInt(answer.json.result);
    const what = `tree ${JSON.stringify(root, (k, v) => (k === 'address' ? undefined : v))}`;
    assert.ok(await succeeds(root.address, estimate), `${what}: the estimate ${estimate} succeeds`);
    const least = await smallest(root.address, 21_000n, estimate);
    if (handsOnFixedGas(root)) {
      assert.ok(estimate * 1_000n <= least * 1_015n, `${what}: ${estimate} within 1.5 % above ${least}`);
    } else {
      assert.is(estimate, least, `${what}: the smallest`);
      exact++;
    }
    checked++;
  }
  assert.ok(checked >= 30 && exact >= 10, `${checked} trees checked, ${exact} of them exactly`);
});

Trees.run();

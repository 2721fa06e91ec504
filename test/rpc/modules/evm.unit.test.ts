/**
 * The developer controls through the dispatcher on a fake chain and miner: what each name asks of
 * them and in which order, the snapshot bookkeeping, one call at a time, the names Hardhat and Anvil
 * answer differently, and bad parameters: -32602 naming the parameter, nothing asked. Their effect
 * on a real chain: evm.test.ts and devtools.test.ts.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ChainProtocol } from '../../../src/actors/chain/index.ts';
import type { MinerProtocol } from '../../../src/actors/miner/index.ts';
import type { TxPoolProtocol } from '../../../src/actors/txpool/index.ts';
import type { MiningMode } from '../../../src/actors/miner/options.ts';
import type { ChainView } from '../../../src/chain/reader.ts';
import type { HeadChange } from '../../../src/chain/writer.ts';
import { devControlsOff } from '../../../src/rpc/modules/evm.ts';
import { fakeRef, fakeRpc } from '../../helpers/fakeRpc.ts';

const Evm = suite('evm_* on a fake chain and miner');
const WHO = '0x4444444444444444444444444444444444444444';

/** A chain at `head` whose miner mines on demand, a second after the last block or at the time set; `gate` holds back mine.now answers. */
function devNode(start: { head?: bigint; mode?: MiningMode } = {}) {
  const at = { head: start.head ?? 5n, timestamp: 1_000n, next: undefined as bigint | undefined, mode: start.mode ?? 'auto' as MiningMode, gate: Promise.resolve() };
  const reader = {
    head: () => ({ number: at.head, hash: new Uint8Array(32).fill(Number(at.head)), header: { timestamp: at.timestamp } }),
    network: { chainId: 33n },
  } as unknown as ChainView;
  const chain = fakeRef<ChainProtocol>('chain', { 'head.rewind': ({ number }) => { at.head = number; return {} as HeadChange; } });
  const block = () => {
    at.head++;
    at.timestamp = at.next ?? at.timestamp + 1n;
    at.next = undefined;
    return { result: 'IMPORTED_BEST' as const, blockHash: `0x${at.head.toString(16).padStart(64, '0')}` as const, number: at.head };
  };
  const miner = fakeRef<MinerProtocol>('miner', {
    'mine.now': async () => { await at.gate; return block(); },
    'mine.blocks': ({ count }) => { for (let i = 0n; i < count; i++) block(); return null; },
    'state.edit': () => block(),
    'time.setNext': ({ timestamp }) => { at.next = timestamp; return null; },
    'time.reset': () => null,
    'time.save': () => ({ offsetSec: at.head, nextTimestamp: undefined, savedAtSec: 0n }),
    'time.restore': () => null,
    'time.increase': ({ seconds }) => seconds,
    'mining.status': () => ({ mode: at.mode, mining: false, hashrate: 0n, coinbase: new Uint8Array(20) }),
    'mining.mode': ({ mode }) => (at.mode = mode),
    'mining.set': ({ on }) => (at.mode = on ? 'auto' : 'off'),
  });
  // A rewind answers once the pool heard it (its `pool.sync` comes after the chain's head change).
  const txpool = fakeRef<TxPoolProtocol>('txpool', { 'pool.sync': () => { assert.ok(chain.asked.length > 0, 'the pool syncs after a rewind'); return null; } });
  const rpc = fakeRpc({ reader, chain, miner, txpool });
  /** The miner's asks since the last look, as [type, request]. */
  const minerAsks = () => miner.asked.splice(0).map((a) => [a.type, a.req]);
  return { at, rpc, chain, miner, txpool, minerAsks };
}

Evm('snapshot ids count up from 0x1; a revert rewinds to the saved head and clock, keeps its snapshot and drops later ones', async () => {
  const { at, rpc, chain, txpool, minerAsks } = devNode({ head: 5n });
  assert.is(await rpc.result('evm_snapshot'), '0x1');
  for (let i = 0; i < 3; i++) await rpc.result('evm_mine');
  assert.is(await rpc.result('evm_snapshot'), '0x2');
  assert.is(await rpc.result('evm_snapshot'), '0x3');
  // The fake miner's saved clock carries the head it was saved at, to tell the snapshots' clocks apart.
  const clockAt = (head: bigint) => ({ offsetSec: head, nextTimestamp: undefined, savedAtSec: 0n });
  minerAsks();
  assert.is(await rpc.result('evm_revert', ['0x2']), true, 'the head is where snapshot 0x2 was: true all the same, as Hardhat\'s fixtures need');
  assert.equal(chain.asked, [], 'nothing to rewind');
  assert.equal(minerAsks(), [['time.restore', { saved: clockAt(8n) }]], 'the clock goes back all the same');
  assert.is(await rpc.result('evm_revert', ['0x1']), true);
  assert.equal(chain.asked, [{ type: 'head.rewind', req: { number: 5n } }]);
  assert.equal(txpool.asked, [{ type: 'pool.sync', req: {} }], 'and waited for the pool to drop what it dropped');
  assert.equal(minerAsks(), [['time.restore', { saved: clockAt(5n) }]]);
  assert.is(at.head, 5n);
  const dropped = await rpc.error('evm_revert', ['0x2']);
  assert.equal(dropped, { code: -32602, message: 'unknown snapshot id 0x2: ids 0x1 to 0x1 exist' });
  assert.is(await rpc.result('evm_revert', [1]), true, 'a JSON number names a snapshot too');
  assert.is(await rpc.result('evm_snapshot'), '0x2', 'the next id follows the ones kept');
});

Evm('hardhat_metadata tells a development network: the client, chain, head, and an instance id that a reset renews', async () => {
  const { rpc } = devNode({ head: 5n });
  const first = await rpc.result('hardhat_metadata');
  assert.equal(Object.keys(first).sort(), ['chainId', 'clientVersion', 'instanceId', 'latestBlockHash', 'latestBlockNumber']);
  assert.is(first.chainId, 33);
  assert.is(first.latestBlockNumber, 5);
  assert.is(first.latestBlockHash, `0x${'05'.repeat(32)}`);
  assert.match(first.instanceId, /^0x[0-9a-f]{64}$/);
  assert.is((await rpc.result('hardhat_metadata')).instanceId, first.instanceId, 'the same network answers the same id');
  await rpc.result('hardhat_reset');
  const after = await rpc.result('hardhat_metadata');
  assert.is(after.latestBlockNumber, 0);
  assert.is.not(after.instanceId, first.instanceId, 'a reset network is a new one');
});

Evm('bad snapshot ids are -32602 naming the parameter, and nothing is rewound', async () => {
  const { rpc, chain } = devNode();
  await rpc.result('evm_snapshot');
  for (const [id, message] of [
    ['abc', 'invalid snapshot id "abc" (argument 0 (id)): expected a hex id such as 0x1'],
    [null, 'invalid snapshot id null (argument 0 (id))'],
    [1.5, 'invalid snapshot id 1.5'],
    ['0x0', 'unknown snapshot id 0x0: ids 0x1 to 0x1 exist'],
    ['0x9', 'unknown snapshot id 0x9: ids 0x1 to 0x1 exist'],
    [-1, 'unknown snapshot id 0x0'],
  ] as const) {
    const err = await rpc.error('evm_revert', [id]);
    assert.is(err.code, -32602, `${id}: ${err.message}`);
    assert.match(err.message, message);
  }
  assert.is((await rpc.error('evm_revert', [])).code, -32602);
  assert.equal(chain.asked, []);
});

Evm('evm_reset rewinds to genesis, forgets the snapshots, resets the time offset and the impersonated accounts', async () => {
  const { rpc, chain, minerAsks } = devNode({ head: 3n });
  await rpc.result('evm_snapshot');
  assert.is(await rpc.result('hardhat_impersonateAccount', [WHO]), true);
  minerAsks();
  assert.is(await rpc.result('hardhat_reset'), null);
  assert.equal(chain.asked, [{ type: 'head.rewind', req: { number: 0n } }]);
  assert.equal(minerAsks(), [['time.reset', {}]]);
  assert.match((await rpc.error('evm_revert', ['0x1'])).message, 'no snapshot was taken');
  assert.is(await rpc.result('hardhat_stopImpersonatingAccount', [WHO]), false, 'no longer impersonated');
  assert.is(await rpc.result('evm_snapshot'), '0x1');
});

Evm('evm_mine: with a timestamp (a number, hex, or Anvil\'s {timestamp}) the next block\'s time is set first', async () => {
  const { rpc, minerAsks } = devNode();
  for (const [param, timestamp] of [[1_700_000_000, 1_700_000_000n], ['0x10', 16n], [{ timestamp: '0x20' }, 32n], ['123', 123n]] as const) {
    assert.is(await rpc.result('evm_mine', [param]), null);
    assert.equal(minerAsks(), [['time.setNext', { timestamp }], ['mine.now', {}]], JSON.stringify(param));
  }
  for (const params of [[], [null], [{}], [{ timestamp: null }]]) {
    await rpc.result('evm_mine', params);
    assert.equal(minerAsks(), [['mine.now', {}]], JSON.stringify(params));
  }
  for (const [param, name] of [['tomorrow', '0 (timestamp)'], [-1, '0 (timestamp)'], [2 ** 53, '0 (timestamp)'], [{ timestamp: 'x' }, '0 (timestamp).timestamp']] as const) {
    const err = await rpc.error('evm_mine', [param]);
    assert.is(err.code, -32602);
    assert.match(err.message, name);
  }
  assert.equal(minerAsks(), [], 'bad input mines nothing');
});

Evm('hardhat_mine / anvil_mine: that many blocks, `interval` seconds apart (1 by default), at most 100,000', async () => {
  const { rpc, minerAsks } = devNode();
  assert.is(await rpc.result('hardhat_mine', ['0x3', '0xa']), null);
  assert.equal(minerAsks(), [['mine.blocks', { count: 3n, interval: 10n }]]);
  await rpc.result('anvil_mine');
  assert.equal(minerAsks(), [['mine.blocks', { count: 1n, interval: 1n }]], 'one block by default, a second apart');
  await rpc.result('anvil_mine', [2, 0]);
  assert.equal(minerAsks(), [['mine.blocks', { count: 2n, interval: 1n }]], 'an interval of 0 is a second');
  for (const blocks of ['0x0', 0, 100_001, '0x186a1', 'many']) {
    const err = await rpc.error('hardhat_mine', [blocks]);
    assert.is(err.code, -32602, String(blocks));
    assert.match(err.message, '0 (blocks)');
    assert.match(err.message, 'a block count from 1 to 100000');
  }
  assert.equal(minerAsks(), []);
});

Evm('automine and interval mining switch the miner\'s mode; switching off what is not on asks nothing', async () => {
  const { rpc, minerAsks } = devNode({ mode: 'interval' });
  assert.is(await rpc.result('hardhat_getAutomine'), false);
  minerAsks();
  await rpc.result('evm_setAutomine', [false]);
  assert.equal(minerAsks(), [['mining.status', {}]], 'interval mining is not automine: it stays');
  await rpc.result('evm_setAutomine', [true]);
  assert.equal(minerAsks(), [['mining.status', {}], ['mining.mode', { mode: 'auto' }]]);
  assert.is(await rpc.result('anvil_getAutomine'), true);
  minerAsks();
  await rpc.result('evm_setIntervalMining', [0]);
  assert.equal(minerAsks(), [['mining.status', {}]], 'automine is not interval mining: it stays');
  await rpc.result('anvil_setIntervalMining', ['0x1f4']);
  assert.equal(minerAsks(), [['mining.mode', { mode: 'interval', blockTimeMs: 500 }]]);
  await rpc.result('evm_setIntervalMining', ['0']);
  assert.equal(minerAsks(), [['mining.status', {}], ['mining.mode', { mode: 'off' }]]);
  await rpc.result('anvil_setAutomine', [false]);
  assert.equal(minerAsks(), [['mining.status', {}]]);
  assert.match((await rpc.error('evm_setAutomine', ['yes'])).message, '0 (enabled)');
  assert.match((await rpc.error('evm_setIntervalMining', [-1])).message, '0 (interval)');
  // A timer cannot wait longer (Node would mine every millisecond instead): refused, as is anything beyond.
  await rpc.result('evm_setIntervalMining', [2 ** 31 - 1]);
  assert.equal(minerAsks(), [['mining.mode', { mode: 'interval', blockTimeMs: 2 ** 31 - 1 }]]);
  for (const interval of [2 ** 31, '0x100000000', Number.MAX_SAFE_INTEGER]) {
    const { code, message } = await rpc.error('evm_setIntervalMining', [interval]);
    assert.is(code, -32602);
    assert.match(message, 'at most 2147483647 milliseconds');
  }
  assert.equal(minerAsks(), []);
});

Evm('state edits: one edit per call, in a block of its own, answering true; bad input names the parameter', async () => {
  const { rpc, miner } = devNode();
  const who = Uint8Array.from(Buffer.from(WHO.slice(2), 'hex'));
  assert.is(await rpc.result('hardhat_setBalance', [WHO, '0x10']), true);
  assert.is(await rpc.result('anvil_setNonce', [WHO, '0x7']), true);
  assert.is(await rpc.result('hardhat_setCode', [WHO, '0x6000']), true);
  assert.is(await rpc.result('anvil_setStorageAt', [WHO, '0x1', `0x${'00'.repeat(31)}2a`]), true);
  const slot = new Uint8Array(32);
  slot[31] = 1;
  const value = new Uint8Array(32);
  value[31] = 0x2a;
  assert.equal(miner.asked.map((a) => a.req), [
    { edits: [{ address: who, balance: 16n }] },
    { edits: [{ address: who, nonce: 7n }] },
    { edits: [{ address: who, code: Uint8Array.of(0x60, 0x00) }] },
    { edits: [{ address: who, storage: [slot, value] }] },
  ]);
  for (const [method, params, name] of [
    ['hardhat_setBalance', ['0x12', '0x1'], '0 (address)'],
    ['hardhat_setBalance', [WHO, 'lots'], '1 (balance)'],
    ['hardhat_setCode', [WHO, '0x1'], '1 (code)'],
    ['anvil_setStorageAt', [WHO, '0x1', '0x01'], '2 (value)'],
  ] as const) {
    const err = await rpc.error(method, [...params]);
    assert.is(err.code, -32602, method);
    assert.match(err.message, name);
  }
  assert.is(miner.asked.length, 4, 'bad input edits nothing');
});

Evm('impersonation: Hardhat answers true, and on stop whether the account was impersonated; Anvil answers null', async () => {
  const { rpc } = devNode();
  assert.is(await rpc.result('hardhat_impersonateAccount', [WHO]), true);
  assert.is(await rpc.result('hardhat_stopImpersonatingAccount', [WHO]), true);
  assert.is(await rpc.result('hardhat_stopImpersonatingAccount', [WHO]), false);
  assert.is(await rpc.result('anvil_impersonateAccount', [WHO]), null);
  assert.is(await rpc.result('anvil_stopImpersonatingAccount', [WHO]), null);
  assert.is(await rpc.result('anvil_autoImpersonateAccount', [true]), null);
  assert.match((await rpc.error('hardhat_impersonateAccount', ['me'])).message, '0 (address)');
});

Evm('the controls run one at a time, in arrival order: a snapshot sent during a mine sees its block', async () => {
  const { at, rpc } = devNode({ head: 5n });
  let release!: () => void;
  at.gate = new Promise((r) => { release = r; });
  const mining = rpc.result('evm_mine');
  const snapshot = rpc.result('evm_snapshot');
  const order: string[] = [];
  void mining.then(() => order.push('mine'));
  void snapshot.then(() => order.push('snapshot'));
  await new Promise((r) => setImmediate(r));
  assert.equal(order, [], 'the snapshot waits for the mine');
  release();
  await Promise.all([mining, snapshot]);
  assert.equal(order, ['mine', 'snapshot']);
  await rpc.result('evm_mine');
  assert.is(await rpc.result('evm_revert', [await snapshot]), true);
  assert.is(at.head, 6n, 'the snapshot holds the head after the first mine');
});

Evm('where the controls are off, every name answers -32601 with the reason and asks nothing', async () => {
  const why = devControlsOff('testnet', false)!;
  assert.is(why, 'developer controls are served on regtest only, this node runs testnet');
  assert.is(devControlsOff('regtest', true), 'developer controls are not served in hosted mode');
  assert.is(devControlsOff('regtest', false), undefined);
  const chain = fakeRef<ChainProtocol>('chain');
  const miner = fakeRef<MinerProtocol>('miner');
  const rpc = fakeRpc({ chain, miner, devControlsOff: why });
  for (const method of ['evm_snapshot', 'evm_revert', 'evm_mine', 'hardhat_mine', 'anvil_setBalance', 'hardhat_impersonateAccount', 'anvil_autoImpersonateAccount']) {
    const err = await rpc.error(method, ['0x1']);
    assert.equal(err, { code: -32601, message: `the method ${method} does not exist/is not available: ${why}` });
  }
  assert.equal([...chain.asked, ...miner.asked], []);
});

Evm.run();

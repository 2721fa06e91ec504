/** On testnet rules difficulty is real: the built-in client solves it and blocks follow docs/chain.md "Difficulty". */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import { resolveSwitches } from '../../../src/rpc/switches.ts';
import { startTestNode } from '../../helpers/node.ts';
import { rpc, waitUntil } from '../../helpers/rpc.ts';

const Difficulty = suite('difficulty on testnet');

Difficulty('fast blocks raise the difficulty by 1/400 from the minimum', async () => {
  const node = await startTestNode({
    network: 'testnet', mining: 'interval', blockTimeMs: 50, coinbase: NETWORKS.regtest.defaultCoinbase,
    // mnr is off on testnet unless configured (README, Module switches).
    rpcModules: resolveSwitches('testnet', { enableMethods: ['mnr_getWork'] }),
  });
  try {
    await waitUntil(async () => Number(await rpc(node.url, 'eth_blockNumber')) >= 3, { what: 'three testnet blocks', timeoutMs: 60_000 });
    const block = (n: number) => rpc(node.url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    const [b1, b2, b3] = await Promise.all([block(1), block(2), block(3)]);
    const min = NETWORKS.testnet.minimumDifficulty;
    assert.is(BigInt(b1.difficulty), min, 'ten minutes after genesis: the minimum');
    assert.is(BigInt(b2.difficulty), min + min / 400n);
    const d2 = BigInt(b2.difficulty);
    assert.is(BigInt(b3.difficulty), d2 + d2 / 400n);
    assert.is(BigInt(b3.totalDifficulty), BigInt(b2.totalDifficulty) + BigInt(b3.difficulty));
    assert.is(await rpc(node.url, 'eth_chainId'), '0x1f');
    const work = await rpc(node.url, 'mnr_getWork');
    assert.ok(BigInt(work.target) < 2n ** 256n / BigInt(b3.difficulty), 'the work targets a still higher difficulty');
  } finally {
    await node.stop();
  }
});

Difficulty.run();

/**
 * The eth_getLogs limits (README "Limits") at both edges, over HTTP: a range of at most 2,000 blocks is
 * answered whatever its number of logs; a longer one while it returns at most 10,000 logs, and
 * otherwise the error states the rule and names a range that fits.
 *
 *   block 2           6 logs
 *   blocks 3…2001     5 logs each (9,995)
 *   block 2002        no logs
 *   block 2003        5 logs
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { quantity } from '../../../../src/chain/codec/bytes.ts';
import { openTestChain, type TestChain } from '../../../helpers/chain.ts';
import { mine, PONG, Sender, serveChain, type ServedChain } from '../../../helpers/logChain.ts';
import { rpc, rpcError } from '../../../helpers/rpc.ts';

const Limits = suite('eth_getLogs limits');
let chain: TestChain;
let served: ServedChain;
Limits.after(async () => { await served?.stop(); await chain?.close(); });

const range = (from: number, to: number, extra: object = {}) => [{ fromBlock: quantity(from), toBlock: quantity(to), ...extra }];

Limits('setup: 2,003 blocks of logs', async () => {
  chain = await openTestChain();
  served = await serveChain(chain);
  const sender = new Sender(chain);
  const deploy = sender.deployTx();
  await mine(chain, [deploy.tx]);
  await mine(chain, [sender.ping(deploy.address, 5, 2)]);
  for (let n = 3; n <= 2001; n++) await mine(chain, [sender.ping(deploy.address, 4, n)]);
  await mine(chain, []);
  await mine(chain, [sender.ping(deploy.address, 4, 2003)]);
  assert.is(chain.reader.head().number, 2003n);
});

Limits('2,000 blocks with more than 10,000 logs are answered', async () => {
  const logs = await rpc<any[]>(served.url, 'eth_getLogs', range(2, 2001));
  assert.is(logs.length, 10_001);
  assert.is(logs[0].blockNumber, '0x2');
  assert.is(logs.at(-1).blockNumber, quantity(2001));
});

Limits('2,001 blocks with 10,001 logs are refused, naming a range that fits', async () => {
  const err = await rpcError(served.url, 'eth_getLogs', range(2, 2002));
  assert.is(err.code, -32005);
  assert.is(err.message,
    'query returned more than 10000 logs over 2001 blocks (0x2 to 0x7d2): a query may span at most 2000 blocks with any number of logs, ' +
    'or any range with at most 10000 logs. This block range should work: [0x2, 0x7d1]');
  assert.is((await rpc<any[]>(served.url, 'eth_getLogs', range(0x2, 0x7d1))).length, 10_001, 'the suggested range is answered');
});

Limits('more than 2,000 blocks are answered while they return at most 10,000 logs', async () => {
  assert.is((await rpc<any[]>(served.url, 'eth_getLogs', range(3, 2003))).length, 10_000, '2,001 blocks, exactly 10,000 logs');
  assert.is((await rpc<any[]>(served.url, 'eth_getLogs', range(0, 2003, { topics: [PONG] }))).length, 2_001, 'filtered: 2,004 blocks, 2,001 logs');
  // From genesis to latest, unfiltered: refused, and the suggestion starts where the query did.
  const err = await rpcError(served.url, 'eth_getLogs', [{ fromBlock: 'earliest', toBlock: 'latest' }]);
  assert.match(err.message, /over 2004 blocks \(0x0 to 0x7d3\).*This block range should work: \[0x0, 0x7d0\]$/);
});

Limits.run();

/** eth_* about the node itself on a real node: the chain id, sync state, the accounts it holds. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DATA, DEV, MINER, storeChain } from '../../../helpers/storeChain.ts';

const { call, stop } = storeChain();
const Node = suite('eth_* node information');
Node.after(stop);

Node('eth_chainId is "0x21"; a node alone is not syncing', async () => {
  assert.is(await call('eth_chainId'), '0x21');
  assert.is(await call('eth_syncing'), false);
});

Node('eth_accounts lists the 10 dev accounts and the regtest miner', async () => {
  const accounts = await call<string[]>('eth_accounts');
  assert.is(accounts.length, 11);
  for (const a of accounts) assert.match(a, DATA(20));
  assert.equal([...accounts].map((a) => a.toLowerCase()).sort(), [...DEV, MINER].sort());
});

Node.run();

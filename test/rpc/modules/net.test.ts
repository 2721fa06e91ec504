/** net_* on a real node without peers: the network id, a listening host, no peers. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../../helpers/node.ts';

const { call, stop } = lazyNode();
const Net = suite('net_*');
Net.after(stop);

Net('net_version is "33"; the p2p host listens and has no peers', async () => {
  assert.is(await call('net_version'), '33');
  assert.is(await call('net_listening'), true);
  assert.is(await call('net_peerCount'), '0x0');
  assert.equal(await call('net_peerList'), []);
});

Net.run();

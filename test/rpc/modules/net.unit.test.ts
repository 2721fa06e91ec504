/**
 * net_* through the dispatcher on fake dependencies: what it makes of the peer manager's answers
 * (a real node's answers are in net.test.ts): the network id in decimal, the peer count as a
 * QUANTITY, each peer as "<short id> | <host>:<port>".
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PeerManagerProtocol, PeerView } from '../../../src/actors/peerManager/index.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import type { ChainView } from '../../../src/chain/reader.ts';
import { fakeRef, fakeRpc } from '../../helpers/fakeRpc.ts';

const Net = suite('net_* on fake peers');
const PEERS: PeerView[] = [
  { id: '16Uiu2HAmAbCdEfGh12345678', host: '10.0.0.7', port: 5050, status: undefined },
  { id: '16Uiu2HAmZyXwVuTs87654321', host: '2001:db8::1', port: 30305, status: undefined },
];
const peers = fakeRef<PeerManagerProtocol>('peerManager', {
  'peers.list': () => PEERS,
  'p2p.info': () => ({ peerId: 'self', multiaddrs: [], listening: false, queued: 0 }),
});
const rpc = fakeRpc({ peers, reader: { network: NETWORKS.testnet } as ChainView });

Net('net_version is the chain id in decimal', async () => {
  assert.is(await rpc.result('net_version'), '31');
});

Net('net_listening is what the peer manager says of its host', async () => {
  assert.is(await rpc.result('net_listening'), false);
});

Net('net_peerCount and net_peerList: one entry per connected peer, the id shortened to its last 8 characters', async () => {
  assert.is(await rpc.result('net_peerCount'), '0x2');
  assert.equal(await rpc.result('net_peerList'), ['12345678 | 10.0.0.7:5050', '87654321 | 2001:db8::1:30305']);
});

Net('no net_* method takes parameters', async () => {
  for (const method of ['net_version', 'net_listening', 'net_peerCount', 'net_peerList']) {
    const err = await rpc.error(method, ['0x1']);
    assert.is(err.code, -32602, method);
    assert.match(err.message, 'too many arguments');
  }
});

Net.run();

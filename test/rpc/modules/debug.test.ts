/** debug_wireProtocolQueueSize through the debug module with a fake peer manager: it reports what the p2p host has queued. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { ActorRef } from '../../../src/actors/kernel/actor.ts';
import type { PeerManagerProtocol } from '../../../src/actors/peerManager/protocol.ts';
import { debugModule } from '../../../src/rpc/modules/debug.ts';

/** A peer manager whose host has `queued` bytes waiting; it records what it was asked. */
function fakePeers(queued: number) {
  const asked: string[] = [];
  const ref = {
    name: 'peers',
    tell: () => undefined,
    ask: async (type: string) => {
      asked.push(type);
      return { peerId: 'fake', multiaddrs: [], listening: true, queued };
    },
  } as unknown as ActorRef<PeerManagerProtocol>;
  return { ref, asked };
}

/** Only the peer manager is used by this method; the tracing dependencies stay unused. */
const methodsWith = (peers: ActorRef<PeerManagerProtocol>) => debugModule({ reader: {} as never, replayer: {} as never, gasCap: 0n, peers });

const Queue = suite('debug_wireProtocolQueueSize');

Queue('answers the bytes the p2p host has queued, as a quantity', async () => {
  for (const [queued, expected] of [[0, '0x0'], [1234, '0x4d2'], [1 << 20, '0x100000']] as const) {
    const peers = fakePeers(queued);
    assert.is(await methodsWith(peers.ref).debug_wireProtocolQueueSize.call([]), expected);
    assert.equal(peers.asked, ['p2p.info']);
  }
});

Queue('takes no parameters: -32602', async () => {
  const err = await methodsWith(fakePeers(0).ref).debug_wireProtocolQueueSize.call([1]).catch((e: { code: number }) => e);
  assert.is((err as { code: number }).code, -32602);
});

Queue.run();

/**
 * The watch over gossip's outbound streams, on two real libp2p hosts over TCP: a healthy peer is left
 * alone; a peer we are connected to but can no longer send gossip to (our outbound stream to it gone,
 * the connection still up) is hung up on, and once redialled, gossip flows to it again.
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { gossipsub, type GossipSub } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { Libp2p } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { createLibp2p } from 'libp2p';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { configureLogging } from '../../src/log.ts';
import { watchGossipStreams } from '../../src/p2p/gossipStreams.ts';
import { waitUntil } from '../helpers/rpc.ts';

configureLogging('error'); // the watch's reconnect line is this test's subject, not its output
const Streams = suite('gossip stream watch');
const TOPIC = 'watch-test';
type Host = Libp2p<{ pubsub: GossipSub }>;

const host = (): Promise<Host> => createLibp2p({
  addresses: { listen: ['/ip4/127.0.0.1/tcp/0'] },
  transports: [tcp()], connectionEncrypters: [noise()], streamMuxers: [yamux()],
  services: { identify: identify(), pubsub: gossipsub({ allowPublishToZeroTopicPeers: true, emitSelf: false }) },
});

/** Joins a to b and waits until each knows the other takes the topic. */
async function join(a: Host, b: Host): Promise<void> {
  await a.dial(b.getMultiaddrs()[0]!);
  await waitUntil(() => a.services.pubsub.getSubscribers(TOPIC).length > 0 && b.services.pubsub.getSubscribers(TOPIC).length > 0, { what: 'both subscribed' });
}

/** Publishes from `from` until `to` hears one (false after `ms`). */
async function reaches(from: Host, to: Host, ms: number): Promise<boolean> {
  let heard = false;
  const listener = () => { heard = true; };
  to.services.pubsub.addEventListener('message', listener);
  try {
    for (const end = Date.now() + ms; !heard && Date.now() < end;) {
      await from.services.pubsub.publish(TOPIC, crypto.getRandomValues(new Uint8Array(8)));
      await new Promise((r) => setTimeout(r, 100));
    }
    return heard;
  } finally {
    to.services.pubsub.removeEventListener('message', listener);
  }
}

Streams('a healthy peer is kept; one left without our outbound stream is hung up on and, redialled, gets gossip again', async () => {
  const [a, b] = await Promise.all([host(), host()]);
  const stopWatch = watchGossipStreams(a, a.services.pubsub, 100);
  try {
    for (const h of [a, b]) h.services.pubsub.subscribe(TOPIC);
    await join(a, b);
    assert.ok(await reaches(a, b, 5_000), 'gossip flows');
    await new Promise((r) => setTimeout(r, 500)); // five checks
    assert.is(a.getConnections(b.peerId).length, 1, 'a healthy peer is kept');

    // Our outbound gossip stream ends while the connection stays up (as when it belonged to a
    // connection that closed while a newer one opened): gossipsub does not open another.
    const [connection] = a.getConnections(b.peerId);
    const outbound = connection!.streams.find((s) => s.direction === 'outbound' && a.services.pubsub.protocols.includes(s.protocol));
    outbound!.abort(new Error('stream lost'));
    await waitUntil(() => a.getConnections(b.peerId).length === 0, { what: 'the peer hung up on', timeoutMs: 5_000 });

    await join(a, b); // the peer manager's redial
    assert.ok(await reaches(a, b, 5_000), 'gossip flows again');
  } finally {
    stopWatch();
    await Promise.all([a.stop(), b.stop()]);
  }
});

Streams.run();

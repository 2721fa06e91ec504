/**
 * A watch over gossip's outbound streams (docs/network.md "Gossip"). gossipsub sends to a peer on one
 * outbound stream, which it opens when the peer connects. When connections to a peer close and open
 * in quick succession (a peer restarting, two dials crossing), it can be left without an open one
 * while a connection to the peer stays up: every message to that peer is then dropped for as long
 * as the connection lasts, and the peer never hears of our blocks. A peer found that way at two
 * checks in a row is hung up on; both sides redial, and the new connection gets new streams.
 */
import type { GossipSub } from '@libp2p/gossipsub';
import type { Libp2p, Stream } from '@libp2p/interface';
import { logger } from '../log.ts';

const log = logger('p2p');

/** How often the streams are checked. */
const GOSSIP_STREAM_CHECK_MS = 2_000;

/** Starts the watch; the function returned stops it. */
export function watchGossipStreams(
  node: Pick<Libp2p, 'getConnections' | 'hangUp'>, pubsub: Pick<GossipSub, 'getPeers' | 'protocols'>, everyMs = GOSSIP_STREAM_CHECK_MS,
): () => void {
  const sendsGossip = (s: Stream) => s.direction === 'outbound' && s.status === 'open' && pubsub.protocols.includes(s.protocol);
  let suspects = new Set<string>();
  const timer = setInterval(() => {
    const seen = new Set<string>();
    for (const peer of pubsub.getPeers()) {
      const connections = node.getConnections(peer);
      // Not connected: gossipsub drops the peer itself.
      if (connections.length === 0 || connections.some((c) => c.status === 'open' && c.streams.some(sendsGossip))) continue;
      const id = peer.toString();
      if (!suspects.has(id)) { seen.add(id); continue; }
      log.info(`no gossip stream to peer ${id.slice(-8)}: reconnecting`);
      void node.hangUp(peer).catch(() => { /* gone meanwhile */ });
    }
    suspects = seen;
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

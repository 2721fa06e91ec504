/**
 * The libp2p host: TCP, noise, yamux, identify, ping, Kademlia DHT (discovery), gossipsub. Every
 * libp2p import of the project lives in src/p2p; the peer manager, which owns the host, sees only
 * the P2P facade of types.ts.
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { gossipsub, TopicValidatorResult, type GossipSub } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { Connection, Libp2p, PeerId } from '@libp2p/interface';
import { kadDHT, passthroughMapper, type KadDHT } from '@libp2p/kad-dht';
import { peerIdFromString } from '@libp2p/peer-id';
import { ping } from '@libp2p/ping';
import { tcp } from '@libp2p/tcp';
import { InvalidDataLengthError, InvalidDataLengthLengthError, InvalidMessageLengthError, lpStream } from '@libp2p/utils';
import { multiaddr } from '@multiformats/multiaddr';
import { sha256 } from '@noble/hashes/sha2.js';
import { createLibp2p } from 'libp2p';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { MalformedResponseError } from './errors.ts';
import { watchGossipStreams } from './gossipStreams.ts';
import { addressOf, isDialable, parseAnnounceAddress } from './multiaddrs.ts';
import type { GossipVerdict, P2P, P2POptions } from './types.ts';

const KEY_FILE = 'p2p-key';
/** How long one random walk (a DHT lookup of a random key) may take. */
const RANDOM_WALK_MS = 10_000;
/** What reading a response throws when the peer broke the length-prefixed framing (or its size limit). */
const BREAKS_FRAMING = [InvalidDataLengthError, InvalidDataLengthLengthError, InvalidMessageLengthError];

/** The node's identity, kept in the data directory so its peer id survives restarts. */
async function loadOrCreateKey(dataDir: string) {
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) return privateKeyFromProtobuf(readFileSync(file));
  const key = await generateKeyPair('Ed25519');
  writeFileSync(file, privateKeyToProtobuf(key), { mode: 0o600 });
  return key;
}

const VERDICTS: Record<GossipVerdict, TopicValidatorResult> = {
  accept: TopicValidatorResult.Accept, ignore: TopicValidatorResult.Ignore, reject: TopicValidatorResult.Reject,
};

export async function createP2P(opts: P2POptions): Promise<P2P> {
  const privateKey = await loadOrCreateKey(opts.dataDir);
  const family = isIP(opts.host) === 6 ? 'ip6' : 'ip4';
  // A node on a loopback address other than the machine's stands in for a host of its own (a local
  // testnet): its connections leave from that address too, so its peers see (and can ban) it there.
  const localAddress = /^127\./.test(opts.host) ? opts.host : undefined;
  const node: Libp2p<{ pubsub: GossipSub; dht: KadDHT }> = await createLibp2p({
    privateKey,
    addresses: {
      listen: [`/${family}/${opts.host}/tcp/${opts.port}`],
      announce: opts.announce.map((a) => parseAnnounceAddress(a).toString()),
    },
    transports: [tcp({ dialOpts: localAddress ? ({ localAddress } as object) : undefined })],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater: {
      denyDialPeer: (peer) => opts.isBanned(peer.toString(), undefined),
      denyDialMultiaddr: (ma) => opts.isBanned(undefined, addressOf(ma.toString()).host),
      denyInboundConnection: (conn) => opts.isBanned(undefined, addressOf(conn.remoteAddr.toString()).host),
      denyOutboundConnection: (peer) => opts.isBanned(peer.toString(), undefined),
      denyInboundEncryptedConnection: (peer) => opts.isBanned(peer.toString(), undefined),
    },
    connectionManager: {
      maxConnections: opts.maxPeers,
      // Half-open connections (TCP accepted, handshake not done) are capped; so is how fast one
      // host may open connections (every node of a local testnet shares one host).
      maxIncomingPendingConnections: 16,
      inboundConnectionThreshold: 20,
    },
    services: {
      identify: identify(),
      ping: ping(),
      dht: kadDHT({
        protocol: opts.dhtProtocol,
        // Serve lookups whatever our addresses look like (private networks and loopback testnets too).
        clientMode: false,
        peerInfoMapper: passthroughMapper,
        initialQuerySelfInterval: 1_000,
        querySelfInterval: 60_000,
      }),
      pubsub: gossipsub({
        globalSignaturePolicy: 'StrictNoSign',
        // Content-addressed ids: the same block or transaction from two peers is one message, relayed once.
        msgIdFn: (msg) => sha256(msg.data),
        allowPublishToZeroTopicPeers: true,
        // The origin sends to every peer it has, not only its mesh: one hop less for a new block.
        floodPublish: true,
        emitSelf: false,
        maxInboundDataLength: opts.maxMessageBytes,
        // Mesh degree and heartbeat as Ethereum's consensus layer uses them for blocks (docs/network.md "Gossip").
        D: 8, Dlo: 6, Dhi: 12, Dlazy: 6, heartbeatInterval: 700,
        doPX: true,
        scoreParams: {
          topics: opts.topicScores,
          // Every node of a local testnet shares one IP: our own address bans cover real hosts.
          IPColocationFactorWeight: 0,
          behaviourPenaltyWeight: -1, behaviourPenaltyDecay: 0.9,
        },
        scoreThresholds: { gossipThreshold: -10, publishThreshold: -50, graylistThreshold: -80, acceptPXThreshold: 5, opportunisticGraftThreshold: 2 },
      }),
    },
  });
  const pubsub = node.services.pubsub;
  const stopWatch = watchGossipStreams(node, pubsub);
  const peerOf = (conn: Connection) => conn.remotePeer.toString();
  const remote = (conn: Connection) => ({ id: peerOf(conn), ...addressOf(conn.remoteAddr.toString()) });
  const self = node.peerId.toString();

  return {
    peerId: self,
    multiaddrs: () => node.getMultiaddrs().map((ma) => ma.toString()).filter(isDialable),

    onGossip(topic, validate) {
      pubsub.subscribe(topic);
      pubsub.topicValidators.set(topic, async (from: PeerId, msg) => VERDICTS[await validate(from.toString(), msg.data)]);
    },
    async publish(topic, data) {
      try {
        await pubsub.publish(topic, data);
      } catch (err) {
        // A message seen before (we relayed it already) is not an error.
        if (!/duplicate/i.test((err as Error).message)) throw err;
      }
    },

    async serve(protocol, maxRequestBytes, handler) {
      await node.handle(protocol, async (stream, conn) => {
        const lp = lpStream(stream, { maxDataLength: maxRequestBytes });
        try {
          const req = await lp.read({ signal: AbortSignal.timeout(opts.requestTimeoutMs) });
          const res = await handler(req.subarray(), peerOf(conn));
          await lp.write(res, { signal: AbortSignal.timeout(opts.requestTimeoutMs) });
          await stream.close();
        } catch (err) {
          stream.abort(err as Error);
        }
      }, { maxInboundStreams: 8 });
    },
    async request(peer, protocol, req, maxResponseBytes) {
      const signal = AbortSignal.timeout(opts.requestTimeoutMs);
      const stream = await node.dialProtocol(peerIdFromString(peer), protocol, { signal });
      try {
        const lp = lpStream(stream, { maxDataLength: maxResponseBytes });
        await lp.write(req, { signal });
        const res = await lp.read({ signal });
        await stream.close();
        return res.subarray();
      } catch (err) {
        stream.abort(err as Error);
        throw BREAKS_FRAMING.some((type) => err instanceof type) ? new MalformedResponseError(protocol, err) : err;
      }
    },

    peers: () => node.getConnections().map(remote),
    onPeerConnected(listener) {
      node.addEventListener('connection:open', (e) => listener(remote(e.detail)));
    },
    onPeerDisconnected(listener) {
      node.addEventListener('peer:disconnect', (e) => listener(e.detail.toString()));
    },
    onPeerAddresses(listener) {
      node.addEventListener('peer:identify', (e) => listener(e.detail.peerId.toString(), e.detail.listenAddrs.map(String)));
      node.addEventListener('peer:discovery', (e) => listener(e.detail.id.toString(), e.detail.multiaddrs.map(String)));
    },
    async disconnect(peer) {
      await node.hangUp(peerIdFromString(peer)).catch(() => {});
    },
    async dial(address) {
      await node.dial(multiaddr(address), { signal: AbortSignal.timeout(opts.requestTimeoutMs) });
    },
    async dialPeer(peer, addresses) {
      await node.dial(addresses.map((a) => multiaddr(`${a}/p2p/${peer}`)), { signal: AbortSignal.timeout(opts.requestTimeoutMs) });
    },
    async randomWalk() {
      const signal = AbortSignal.timeout(RANDOM_WALK_MS);
      // Each peer met on the way is reported through 'peer:discovery' (onPeerAddresses).
      for await (const _ of node.peerRouting.getClosestPeers(randomBytes(32), { signal })) { /* drained for its side effect */ }
    },
    queuedMessages: () => node.getConnections().reduce((n, c) => n + c.streams.reduce((m, s) => m + s.writeBufferLength, 0), 0),
    async stop() {
      stopWatch();
      await node.stop();
    },
  };
}

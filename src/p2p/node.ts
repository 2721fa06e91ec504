/**
 * The libp2p host: TCP, noise, yamux, identify, gossipsub, bootstrap. Every libp2p import of the
 * project lives in src/p2p; actors see only the P2P facade of index.ts.
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { bootstrap } from '@libp2p/bootstrap';
import { generateKeyPair, privateKeyFromProtobuf, privateKeyToProtobuf } from '@libp2p/crypto/keys';
import { gossipsub, TopicValidatorResult, type GossipSub } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { Connection, Libp2p, PeerId } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { tcp } from '@libp2p/tcp';
import { lpStream } from '@libp2p/utils';
import { multiaddr } from '@multiformats/multiaddr';
import { sha256 } from '@noble/hashes/sha2.js';
import { createLibp2p } from 'libp2p';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GossipVerdict, P2P, P2POptions, PeerAddress } from './types.ts';

const KEY_FILE = 'p2p-key';

/** The node's identity, kept in the data directory so its peer id survives restarts. */
async function loadOrCreateKey(dataDir: string) {
  const file = join(dataDir, KEY_FILE);
  if (existsSync(file)) return privateKeyFromProtobuf(readFileSync(file));
  const key = await generateKeyPair('Ed25519');
  writeFileSync(file, privateKeyToProtobuf(key), { mode: 0o600 });
  return key;
}

/** "/ip4/1.2.3.4/tcp/5050/…" → { host, port } */
export function addressOf(ma: string): PeerAddress {
  const m = /^\/ip[46]\/([^/]+)\/tcp\/(\d+)/.exec(ma);
  return { host: m?.[1] ?? '?', port: Number(m?.[2] ?? 0) };
}

const VERDICTS: Record<GossipVerdict, TopicValidatorResult> = {
  accept: TopicValidatorResult.Accept, ignore: TopicValidatorResult.Ignore, reject: TopicValidatorResult.Reject,
};

export async function createP2P(opts: P2POptions): Promise<P2P> {
  const privateKey = await loadOrCreateKey(opts.dataDir);
  const node: Libp2p<{ pubsub: GossipSub }> = await createLibp2p({
    privateKey,
    addresses: { listen: [`/ip4/${opts.host}/tcp/${opts.port}`] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    peerDiscovery: opts.bootnodes.length ? [bootstrap({ list: [...opts.bootnodes], timeout: 100 })] : [],
    connectionGater: {
      denyDialPeer: (peer) => opts.isBanned(peer.toString(), undefined),
      denyDialMultiaddr: (ma) => opts.isBanned(undefined, addressOf(ma.toString()).host),
      denyInboundConnection: (conn) => opts.isBanned(undefined, addressOf(conn.remoteAddr.toString()).host),
      denyOutboundConnection: (peer) => opts.isBanned(peer.toString(), undefined),
      denyInboundEncryptedConnection: (peer) => opts.isBanned(peer.toString(), undefined),
    },
    connectionManager: { maxConnections: opts.maxPeers },
    services: {
      identify: identify(),
      pubsub: gossipsub({
        globalSignaturePolicy: 'StrictNoSign',
        // Content-addressed ids: the same block or transaction from two peers is one message.
        msgIdFn: (msg) => sha256(msg.data),
        allowPublishToZeroTopicPeers: true,
        floodPublish: true,
        emitSelf: false,
        maxInboundDataLength: opts.maxMessageBytes,
      }),
    },
  });
  const pubsub = node.services.pubsub;
  const peerOf = (conn: Connection) => conn.remotePeer.toString();
  const remote = (conn: Connection) => ({ id: peerOf(conn), ...addressOf(conn.remoteAddr.toString()) });

  return {
    peerId: node.peerId.toString(),
    multiaddrs: () => node.getMultiaddrs().map((ma) => ma.toString()),

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
        throw err;
      }
    },

    peers: () => node.getConnections().map(remote),
    onPeerConnected(listener) {
      node.addEventListener('connection:open', (e) => listener(remote(e.detail)));
    },
    onPeerDisconnected(listener) {
      node.addEventListener('peer:disconnect', (e) => listener(e.detail.toString()));
    },
    async disconnect(peer) {
      await node.hangUp(peerIdFromString(peer)).catch(() => {});
    },
    async dial(address) {
      await node.dial(multiaddr(address), { signal: AbortSignal.timeout(opts.requestTimeoutMs) });
    },
    queuedMessages: () => node.getConnections().reduce((n, c) => n + c.streams.reduce((m, s) => m + s.writeBufferLength, 0), 0),
    async stop() {
      await node.stop();
    },
  };
}

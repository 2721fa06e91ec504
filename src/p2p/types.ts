/** The P2P facade the rest of the node sees: no libp2p type crosses this line. */
import type { TopicScoreParams } from '@libp2p/gossipsub/score';

export type PeerIdStr = string;
export type GossipVerdict = 'accept' | 'ignore' | 'reject';

export interface PeerAddress {
  readonly host: string;
  readonly port: number;
}

export interface ConnectedPeer extends PeerAddress {
  readonly id: PeerIdStr;
}

export interface P2POptions {
  readonly dataDir: string;
  /** Listen address: an IP (0.0.0.0 or :: for every interface). */
  readonly host: string;
  readonly port: number;
  /** Addresses advertised instead of the listen addresses (no /p2p part). */
  readonly announce: readonly string[];
  readonly maxPeers: number;
  readonly maxMessageBytes: number;
  readonly requestTimeoutMs: number;
  /** The DHT's protocol id: scoped by chain, so discovery stays among nodes of one network. */
  readonly dhtProtocol: string;
  /** Gossipsub scoring per topic (src/p2p/gossip/topics.ts). */
  readonly topicScores: Record<string, TopicScoreParams>;
  /** Consulted by the connection gater: a banned peer id or host is refused. */
  isBanned(peer: PeerIdStr | undefined, host: string | undefined): boolean;
}

export interface P2P {
  readonly peerId: PeerIdStr;
  /** Where others can reach this node (no wildcard address), each ending in /p2p/<our id>. */
  multiaddrs(): string[];
  /** Subscribes to a topic; `validate` decides whether a message is delivered and relayed. */
  onGossip(topic: string, validate: (from: PeerIdStr, data: Uint8Array) => Promise<GossipVerdict>): void;
  publish(topic: string, data: Uint8Array): Promise<void>;
  /** Serves one request/response protocol: length-prefixed request in, length-prefixed response out. */
  serve(protocol: string, maxRequestBytes: number, handler: (req: Uint8Array, from: PeerIdStr) => Promise<Uint8Array>): Promise<void>;
  /**
   * Asks one request of a peer. Rejects with MalformedResponseError (src/p2p/errors.ts) when the answer
   * breaks the framing or exceeds `maxResponseBytes`, with another error when no answer came.
   */
  request(peer: PeerIdStr, protocol: string, req: Uint8Array, maxResponseBytes: number): Promise<Uint8Array>;
  peers(): ConnectedPeer[];
  onPeerConnected(listener: (peer: ConnectedPeer) => void): void;
  onPeerDisconnected(listener: (peer: PeerIdStr) => void): void;
  /** Addresses a peer advertises (identify) or that discovery found for it, unfiltered. */
  onPeerAddresses(listener: (peer: PeerIdStr, addresses: string[]) => void): void;
  disconnect(peer: PeerIdStr): Promise<void>;
  dial(multiaddr: string): Promise<void>;
  /** Dials a peer at any of its addresses (each without /p2p). */
  dialPeer(peer: PeerIdStr, addresses: readonly string[]): Promise<void>;
  /** One DHT lookup of a random key: the peers met on the way reach onPeerAddresses. */
  randomWalk(): Promise<void>;
  /** Bytes waiting in outgoing stream buffers (debug_wireProtocolQueueSize). */
  queuedMessages(): number;
  stop(): Promise<void>;
}

/** The P2P facade actors use: no libp2p type crosses this line. */
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
  readonly host: string;
  readonly port: number;
  /** Multiaddrs (with /p2p/<id>) dialled at start. */
  readonly bootnodes: readonly string[];
  readonly maxPeers: number;
  readonly maxMessageBytes: number;
  readonly requestTimeoutMs: number;
  /** Consulted by the connection gater: a banned peer id or host is refused. */
  isBanned(peer: PeerIdStr | undefined, host: string | undefined): boolean;
}

export interface P2P {
  readonly peerId: PeerIdStr;
  multiaddrs(): string[];
  /** Subscribes to a topic; `validate` decides whether a message is delivered and relayed. */
  onGossip(topic: string, validate: (from: PeerIdStr, data: Uint8Array) => Promise<GossipVerdict>): void;
  publish(topic: string, data: Uint8Array): Promise<void>;
  /** Serves one request/response protocol: length-prefixed request in, length-prefixed response out. */
  serve(protocol: string, maxRequestBytes: number, handler: (req: Uint8Array, from: PeerIdStr) => Promise<Uint8Array>): Promise<void>;
  request(peer: PeerIdStr, protocol: string, req: Uint8Array, maxResponseBytes: number): Promise<Uint8Array>;
  peers(): ConnectedPeer[];
  onPeerConnected(listener: (peer: ConnectedPeer) => void): void;
  onPeerDisconnected(listener: (peer: PeerIdStr) => void): void;
  disconnect(peer: PeerIdStr): Promise<void>;
  dial(multiaddr: string): Promise<void>;
  /** Bytes waiting in outgoing stream buffers (debug_wireProtocolQueueSize). */
  queuedMessages(): number;
  stop(): Promise<void>;
}

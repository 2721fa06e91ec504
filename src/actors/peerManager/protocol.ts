/**
 * The peer manager owns the libp2p host (through the P2P facade), the peer table with each peer's
 * status, the reputations and the bans. Gossip validators and block sync report peer behaviour to
 * it; the RPC layer reads it for net_* and sco_*.
 */
import type { ConnectedPeer, PeerEvent, PeerIdStr, Status } from '../../p2p/index.ts';
import type { Reputation } from './scoring.ts';

export interface PeerView extends ConnectedPeer {
  /** Known after the status handshake. */
  readonly status: Status | undefined;
}

export interface ScoringEntry extends Record<PeerEvent, number> {
  readonly score: number;
  readonly punishments: number;
  readonly goodReputation: boolean;
  readonly punishedUntil: number;
  readonly id: string;
  readonly type: 'node' | 'address';
}

export type PeerManagerProtocol = {
  tell:
    | { type: 'peer.connected'; peer: ConnectedPeer }
    | { type: 'peer.disconnected'; peer: PeerIdStr }
    | { type: 'peer.handshaked'; peer: PeerIdStr; status: Status }
    | { type: 'peer.event'; peer: PeerIdStr; event: PeerEvent }
    /** Addresses a peer advertises or discovery found for it: remembered (bounded). */
    | { type: 'peer.addresses'; peer: PeerIdStr; addresses: string[] }
    | { type: 'dial.done'; peer: PeerIdStr }
    /** The dialer's clock: below the minimum of peers, dial more. */
    | { type: 'dial.tick' }
    /** `encode` (over an immutable block or transaction) runs only when a peer is there to hear it. */
    | { type: 'gossip.publish'; topic: string; encode: () => Uint8Array };
  ask: {
    'peers.list': { req: {}; res: PeerView[] };
    'p2p.info': { req: {}; res: { peerId: PeerIdStr; multiaddrs: string[]; listening: boolean; queued: number } };
    'p2p.dial': { req: { multiaddr: string }; res: void };
    /** Bans a peer id for `ms` and disconnects it (also the testnet harness's partition hook). */
    'peers.ban': { req: { peer: PeerIdStr; ms: number }; res: void };
    'peers.unban': { req: { peer: PeerIdStr }; res: void };
    'sco.banAddress': { req: { address: string }; res: null };
    'sco.unbanAddress': { req: { address: string }; res: null };
    'sco.peerList': { req: {}; res: ScoringEntry[] };
    'sco.bannedAddresses': { req: {}; res: string[] };
  };
};

export type { Reputation };

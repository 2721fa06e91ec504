/** The peer manager's options (--min-peers, --bootnodes) and their defaults. */
import type { PeerIdStr } from '../../p2p/types.ts';

export interface PeerManagerOptions {
  /** First punishment length (reference: 12 minutes). */
  readonly punishmentMs: number;
  /** Reputation records kept (reference: 100, least recently used dropped). */
  readonly maxRecords: number;
  /** Below this many connections the node dials remembered and discovered peers (docs/network.md "Discovery"). */
  readonly minPeers: number;
  /** Peers dialled at start and redialled while below the minimum. */
  readonly bootnodes: readonly { peerId: PeerIdStr; address: string }[];
  /** Where the remembered peers are kept; undefined: in memory only. */
  readonly dataDir: string | undefined;
  /** How often the dialer looks at the peer count. */
  readonly dialIntervalMs: number;
}

export const DEFAULT_PEER_MANAGER_OPTIONS = Object.freeze({
  punishmentMs: 12 * 60_000,
  maxRecords: 100,
  /** Enough for gossip's mesh (docs/network.md "Gossip") to form. */
  minPeers: 8,
  dialIntervalMs: 1_000,
}) satisfies Partial<PeerManagerOptions>;

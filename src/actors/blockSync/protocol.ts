/**
 * Block sync owns the chains peers told us about (one candidate per peer: the head of its status
 * handshake, or the height of a gossiped block whose parent we lack) and the one download running
 * towards the best of them, with its progress. The peer manager tells it each peer's status, gossip
 * tells it of orphan blocks; the download hands batches to the chain actor (blocks.import) and
 * reports faulty peers through `report`. The RPC layer asks it for eth_syncing and the status page
 * for the rate. It publishes nothing on the bus: the chain announces what it imports.
 */
import type { PeerIdStr, Status } from '../../p2p/index.ts';
import type { SyncReport } from './progress.ts';

export interface SyncStatus {
  readonly startingBlock: bigint;
  readonly currentBlock: bigint;
  readonly highestBlock: bigint;
}

export type BlockSyncProtocol = {
  tell:
    | { type: 'peer.status'; peer: PeerIdStr; status: Status }
    | { type: 'block.orphan'; peer: PeerIdStr; number: bigint }
    /** From the running download: it imported up to this block. */
    | { type: 'sync.progress'; currentBlock: bigint }
    /** From the running download: it ended (caught up, gave up on `peer`, or failed). */
    | { type: 'sync.finished'; peer: PeerIdStr };
  ask: {
    /** eth_syncing: false unless a sync more than a few blocks behind runs. */
    'sync.status': { req: {}; res: SyncStatus | false };
    /** Rate and ETA too, for the log, the status page and the metrics. */
    'sync.report': { req: {}; res: SyncReport | false };
  };
};

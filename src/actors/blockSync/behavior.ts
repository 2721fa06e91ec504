/**
 * Block sync: when a peer reports a heavier chain (status handshake) or gossips a block whose
 * parent we lack, run one download towards the best candidate (download.ts), outside the mailbox,
 * which reports its progress and its end back as messages. While behind, eth_syncing reports
 * {startingBlock, currentBlock, highestBlock}; afterwards the node follows gossip.
 */
import { logger } from '../../log.ts';
import type { PeerIdStr } from '../../p2p/index.ts';
import { ActorStoppedError, type ActorRef, type Behavior } from '../kernel/index.ts';
import { download, type DownloadDeps, type Target } from './download.ts';
import { describeProgress, SyncProgress } from './progress.ts';
import type { BlockSyncProtocol } from './protocol.ts';

const log = logger('sync');

/** Only a sync this far behind is reported by eth_syncing (a block or two is just gossip lag). */
const SYNCING_THRESHOLD = 8n;
/** While catching up, a progress line this often. */
const PROGRESS_LOG_MS = 5_000;

interface Running extends Target {
  /** The peers the download asks (download.ts), the target first; peers as far ahead join as their status arrives. */
  readonly sources: PeerIdStr[];
  readonly startingBlock: bigint;
  currentBlock: bigint;
  readonly progress: SyncProgress;
  readonly logTimer: NodeJS.Timeout;
}

export interface SyncState {
  running: Running | undefined;
  /** The best chain each peer told us about. */
  readonly candidates: Map<PeerIdStr, Target>;
}

export interface BlockSyncDeps extends DownloadDeps {
  readonly self: () => ActorRef<BlockSyncProtocol>;
}

export function blockSyncBehavior(deps: BlockSyncDeps): Behavior<BlockSyncProtocol, SyncState> {
  const { reader } = deps;
  const tell = (msg: BlockSyncProtocol['tell']) => { try { deps.self().tell(msg); } catch { /* stopping */ } };
  const catchingUp = (r: Running) => r.highest > r.startingBlock + SYNCING_THRESHOLD;

  function start(s: SyncState, target: Target): void {
    const current = reader.head().number;
    const progress = new SyncProgress(current, target.highest);
    const others = [...s.candidates.values()].filter((c) => c.peer !== target.peer && c.highest >= target.highest).map((c) => c.peer);
    const running: Running = {
      ...target, sources: [target.peer, ...others], startingBlock: current, currentBlock: current, progress,
      logTimer: setInterval(() => { if (catchingUp(running)) log.info(`syncing ${describeProgress(progress.report(reader.head().number))}`); }, PROGRESS_LOG_MS).unref(),
    };
    s.running = running;
    if (catchingUp(running)) log.info(`syncing from #${current} to #${target.highest} with ${target.peer.slice(-8)}`);
    void download(deps, target, running.sources, (head) => tell({ type: 'sync.progress', currentBlock: head }))
      .catch((err) => { if (!(err instanceof ActorStoppedError)) log.error({ err }, 'sync failed'); })
      .finally(() => tell({ type: 'sync.finished', peer: target.peer }));
  }

  /** The candidate with the most total difficulty above ours, if any (one known only by an orphan block counts as heavier). */
  function best(s: SyncState): Target | undefined {
    const ours = reader.head().totalDifficulty;
    let pick: Target | undefined;
    for (const t of s.candidates.values()) {
      const td = t.td ?? 0n;
      if ((t.td === undefined || td > ours) && (!pick || td > (pick.td ?? 0n))) pick = t;
    }
    return pick;
  }

  return {
    init: () => ({ running: undefined, candidates: new Map() }),
    onTell(s, msg) {
      switch (msg.type) {
        case 'peer.status': {
          s.candidates.set(msg.peer, { peer: msg.peer, highest: msg.status.headNumber, td: msg.status.totalDifficulty });
          const r = s.running;
          if (r && msg.status.headNumber >= r.highest && !r.sources.includes(msg.peer)) r.sources.push(msg.peer);
          break;
        }
        case 'block.orphan':
          // A gossiped block with an unknown parent: that peer has blocks we lack.
          s.candidates.set(msg.peer, { peer: msg.peer, highest: msg.number, td: undefined });
          break;
        case 'sync.progress':
          if (s.running) s.running.currentBlock = msg.currentBlock;
          return s;
        case 'sync.finished': {
          const done = s.running;
          s.running = undefined;
          if (done) {
            clearInterval(done.logTimer);
            s.candidates.delete(done.peer);
            if (catchingUp(done)) log.info(`sync done at #${reader.head().number}`);
          }
          break;
        }
      }
      if (!s.running) {
        const target = best(s);
        if (target) start(s, target);
      }
      return s;
    },
    onAsk: {
      'sync.status': (s) => {
        const r = s.running;
        if (!r || !catchingUp(r)) return [s, false];
        return [s, { startingBlock: r.startingBlock, currentBlock: reader.head().number, highestBlock: r.highest }];
      },
      'sync.report': (s) => {
        const r = s.running;
        if (!r || !catchingUp(r)) return [s, false];
        return [s, r.progress.report(reader.head().number)];
      },
    },
    onStop(s) {
      if (s.running) clearInterval(s.running.logTimer);
    },
  };
}

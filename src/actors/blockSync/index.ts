/**
 * Block sync: when a peer reports a heavier chain (status handshake) or gossips a block whose
 * parent we lack, download its blocks in batches by number and hand them to the chain, which
 * verifies each one fully (proof, header rules, re-execution). While behind, eth_syncing reports
 * {startingBlock, currentBlock, highestBlock}; afterwards the node follows gossip.
 */
import { blockFromFields, type Block } from '../../chain/codec/block.ts';
import type { ChainView } from '../../chain/reader.ts';
import type { PeerEvent, PeerIdStr, Status } from '../../p2p/index.ts';
import type { ChainProtocol } from '../chain/index.ts';
import { logger } from '../../log.ts';
import { ActorStoppedError, spawn, type Actor, type ActorRef } from '../kernel/index.ts';
import { describeProgress, SyncProgress, type SyncReport } from './progress.ts';

const log = logger('sync');

export interface SyncStatus {
  readonly startingBlock: bigint;
  readonly currentBlock: bigint;
  readonly highestBlock: bigint;
}

export type BlockSyncProtocol = {
  tell:
    | { type: 'peer.status'; peer: PeerIdStr; status: Status }
    | { type: 'block.orphan'; peer: PeerIdStr; number: bigint }
    | { type: 'sync.progress'; currentBlock: bigint }
    | { type: 'sync.finished'; peer: PeerIdStr };
  ask: {
    'sync.status': { req: {}; res: SyncStatus | false };
    /** Rate and ETA too, for the log, the status page and the metrics. */
    'sync.report': { req: {}; res: SyncReport | false };
  };
};

/** Blocks asked for per request. */
export const SYNC_BATCH = 128;
/** Batch requests outstanding at once, spread over the peers that have the blocks. */
const IN_FLIGHT = 4;
/** Only a sync this far behind is reported by eth_syncing (a block or two is just gossip lag). */
const SYNCING_THRESHOLD = 8n;
/** While catching up, a progress line this often. */
const PROGRESS_LOG_MS = 5_000;

interface Target { readonly peer: PeerIdStr; readonly highest: bigint; readonly td: bigint | undefined }

interface SyncState {
  running: (Target & { startingBlock: bigint; currentBlock: bigint; progress: SyncProgress; logTimer: NodeJS.Timeout }) | undefined;
  /** The best chain each peer told us about. */
  readonly candidates: Map<PeerIdStr, Target>;
}

export interface BlockSyncDeps {
  readonly reader: ChainView;
  readonly chain: ActorRef<ChainProtocol>;
  /** Canonical blocks of `peer` from `start` on (at most `count`), each as its decoded RLP. */
  readonly fetchBlocks: (peer: PeerIdStr, start: bigint, count: number) => Promise<unknown[]>;
  readonly report: (peer: PeerIdStr, event: PeerEvent) => void;
}

export function spawnBlockSync(deps: BlockSyncDeps): Actor<BlockSyncProtocol> {
  const { reader, chain } = deps;
  let actor: Actor<BlockSyncProtocol> | undefined;
  const tell = (msg: BlockSyncProtocol['tell']) => { try { actor!.ref.tell(msg); } catch { /* stopping */ } };

  /** One batch of blocks from `peer`, decoded; undefined after reporting a faulty peer. */
  async function fetchBatch(peer: PeerIdStr, start: bigint): Promise<Block[] | undefined> {
    let items: unknown[];
    try {
      items = await deps.fetchBlocks(peer, start, SYNC_BATCH);
    } catch (err) {
      deps.report(peer, /timeout|abort/i.test((err as Error).message) ? 'timeoutMessages' : 'invalidMessages');
      return undefined;
    }
    try {
      const blocks = items.map((item) => blockFromFields(item, reader.common));
      if (blocks.some((b, i) => b.header.number !== start + BigInt(i))) { deps.report(peer, 'unexpectedMessages'); return undefined; }
      return blocks;
    } catch {
      deps.report(peer, 'invalidMessages');
      return undefined;
    }
  }

  /**
   * Downloads up to `target.highest`, runs outside the mailbox and reports back. Batches are asked
   * of `sources` in turn (the target first, then other peers at least as far ahead), up to
   * IN_FLIGHT at a time, and imported in order as they arrive. A batch that fails or does not link
   * is asked of the target again; when that fails too, the target is given up.
   */
  async function download(target: Target, sources: readonly PeerIdStr[]): Promise<void> {
    let cursor = reader.head().number + 1n; // next block number to import
    let back = 0n;
    let turn = 0;
    const inFlight = new Map<bigint, Promise<Block[] | undefined>>();
    const ask = (start: bigint) => {
      if (!inFlight.has(start)) inFlight.set(start, fetchBatch(sources[turn++ % sources.length]!, start));
    };
    for (;;) {
      if (target.td !== undefined && reader.head().totalDifficulty >= target.td) return;
      const start = cursor > 1n ? cursor : 1n;
      // Keep the pipe full ahead of the cursor, within what the target said it has.
      for (let k = 0n; k < BigInt(IN_FLIGHT); k++) {
        const at = start + k * BigInt(SYNC_BATCH);
        if (k === 0n || at <= target.highest) ask(at);
      }
      let batch = await inFlight.get(start)!;
      inFlight.delete(start);
      const links = batch !== undefined && batch.length > 0 && (await reader.getHeader(batch[0]!.header.parentHash)) !== undefined;
      // Another peer may have failed, or be on another branch than the target.
      if (!links && sources.length > 1) batch = await fetchBatch(target.peer, start);
      if (!batch || batch.length === 0) return;
      if (!(await reader.getHeader(batch[0]!.header.parentHash))) {
        if (start === 1n) { deps.report(target.peer, 'invalidBlocks'); return; } // no common ancestor: not our chain
        back = back === 0n ? 64n : back * 2n; // our chains fork further back
        cursor = start - back;
        inFlight.clear();
        continue;
      }
      // A minute per block, as when they were imported one by one.
      const outcomes = await chain.ask('blocks.import', { blocks: batch }, 60_000 * batch.length);
      const invalid = outcomes.find((o) => o.result === 'INVALID_BLOCK');
      if (invalid) {
        log.warn(`invalid block #${invalid.block.header.number} from ${target.peer.slice(-8)}: ${invalid.reason}`);
        deps.report(target.peer, 'invalidBlocks');
        return;
      }
      if (outcomes.some((o) => o.result === 'NO_PARENT')) { inFlight.clear(); continue; } // re-ask from the new head
      cursor = start + BigInt(batch.length);
      tell({ type: 'sync.progress', currentBlock: reader.head().number });
      if (batch.length < SYNC_BATCH) inFlight.clear(); // the source had no more: the rest are asked again
    }
  }

  function start(s: SyncState, target: Target) {
    const current = reader.head().number;
    const progress = new SyncProgress(current, target.highest);
    const catchingUp = target.highest > current + SYNCING_THRESHOLD;
    const logTimer = setInterval(() => { if (catchingUp) log.info(`syncing ${describeProgress(progress.report(reader.head().number))}`); }, PROGRESS_LOG_MS).unref();
    s.running = { ...target, startingBlock: current, currentBlock: current, progress, logTimer };
    if (catchingUp) log.info(`syncing from #${current} to #${target.highest} with ${target.peer.slice(-8)}`);
    const others = [...s.candidates.values()].filter((c) => c.peer !== target.peer && c.highest >= target.highest).map((c) => c.peer);
    void download(target, [target.peer, ...others]).catch((err) => { if (!(err instanceof ActorStoppedError)) log.error({ err }, 'sync failed'); }).finally(() => tell({ type: 'sync.finished', peer: target.peer }));
  }

  /** The candidate with the most total difficulty above ours, if any. */
  function best(s: SyncState): Target | undefined {
    const ours = reader.head().totalDifficulty;
    let pick: Target | undefined;
    for (const t of s.candidates.values()) {
      const td = t.td ?? 0n;
      if ((t.td === undefined || td > ours) && (!pick || td > (pick.td ?? 0n))) pick = t;
    }
    return pick;
  }

  actor = spawn<BlockSyncProtocol, SyncState>('blockSync', {
    init: () => ({ running: undefined, candidates: new Map() }),
    onTell(s, msg) {
      switch (msg.type) {
        case 'peer.status':
          s.candidates.set(msg.peer, { peer: msg.peer, highest: msg.status.headNumber, td: msg.status.totalDifficulty });
          break;
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
            if (done.highest > done.startingBlock + SYNCING_THRESHOLD) log.info(`sync done at #${reader.head().number}`);
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
        if (!r || r.highest <= r.startingBlock + SYNCING_THRESHOLD) return [s, false];
        return [s, { startingBlock: r.startingBlock, currentBlock: reader.head().number, highestBlock: r.highest }];
      },
      'sync.report': (s) => {
        const r = s.running;
        if (!r || r.highest <= r.startingBlock + SYNCING_THRESHOLD) return [s, false];
        return [s, r.progress.report(reader.head().number)];
      },
    },
    onStop(s) {
      if (s.running) clearInterval(s.running.logTimer);
    },
  }, { mailboxSize: 10_000, policy: { kind: 'restart', maxRestarts: 5, withinMs: 60_000, backoffMs: (n) => 100 * 2 ** n } });
  return actor;
}

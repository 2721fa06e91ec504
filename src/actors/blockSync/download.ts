/**
 * One download towards a peer's chain: batches of SYNC_BATCH blocks by number, IN_FLIGHT requests
 * at a time spread over the peers that have them, handed to the chain actor in order, the batches
 * that have arrived and follow each other as one run of up to RUN_BLOCKS (the chain verifies every
 * block fully: proof, header rules, re-execution, and stores each run atomically). The first run is
 * one batch of FIRST_BATCH blocks, so the head moves as soon as it is in; while a run executes, the
 * batches after it are already asked for (docs/network.md "Block sync").
 */
import { equalsBytes } from '@ethereumjs/util';
import { blockFromFields, type Block } from '../../chain/codec/block.ts';
import type { ChainView } from '../../chain/reader.ts';
import { MalformedResponseError, MAX_BLOCKS_PER_REQUEST, type PeerEvent, type PeerIdStr } from '../../p2p/index.ts';
import type { ChainProtocol } from '../chain/index.ts';
import type { ActorRef } from '../kernel/index.ts';
import { logger } from '../../log.ts';
import { SenderRecovery } from './senders.ts';

const log = logger('sync');

/**
 * Blocks asked for per request: the most a request may ask. Each request is a stream of its own, and a
 * stream costs both sides more than the blocks in it (docs/network.md "Sync figures").
 */
export const SYNC_BATCH = MAX_BLOCKS_PER_REQUEST;
/**
 * Blocks asked for by a download's first request: it arrives sooner than a full batch, so the first
 * import (on code not yet optimised) starts and moves the head sooner while the batches after it arrive.
 */
export const FIRST_BATCH = 32;
/**
 * Batch requests outstanding at once, spread over the peers that have the blocks; fewer than the eight
 * streams a peer accepts at once per protocol (p2p/host.ts), so that a single peer can serve them all.
 */
export const IN_FLIGHT = 6;
/**
 * Most blocks handed to the chain at once: a run is written in one batch, and a longer one costs the
 * chain less per block (docs/network.md "Sync figures"); half the blocks in flight, so the other half
 * arrives while it executes.
 */
export const RUN_BLOCKS = (IN_FLIGHT / 2) * SYNC_BATCH;
/** A download at least this far behind recovers senders on a worker thread (senders.ts); a shorter one is not worth starting it. */
export const RECOVER_OFF_THREAD_FROM = 2n * BigInt(SYNC_BATCH);

/** A chain a peer told us about: its head number and, after a status handshake, its total difficulty. */
export interface Target { readonly peer: PeerIdStr; readonly highest: bigint; readonly td: bigint | undefined }

export interface DownloadDeps {
  readonly reader: ChainView;
  readonly chain: ActorRef<ChainProtocol>;
  /** Canonical blocks of `peer` from `start` on (at most `count`), each as its decoded RLP. */
  readonly fetchBlocks: (peer: PeerIdStr, start: bigint, count: number) => Promise<unknown[]>;
  readonly report: (peer: PeerIdStr, event: PeerEvent) => void;
}

/** Blocks from one peer: `asked` of them were asked for, fewer came when the peer has no more. */
interface Batch { readonly peer: PeerIdStr; readonly asked: number; readonly blocks: Block[] }

/** One batch of blocks from `peer`, decoded, senders recovered if `senders` serves; undefined after reporting a faulty peer. */
async function fetchBatch(deps: DownloadDeps, peer: PeerIdStr, start: bigint, asked: number, senders: SenderRecovery | undefined): Promise<Batch | undefined> {
  let items: unknown[];
  try {
    items = await deps.fetchBlocks(peer, start, asked);
  } catch (err) {
    // An answer that breaks its protocol is the peer's fault; no answer in time, or a connection lost, may only mean it went away.
    deps.report(peer, err instanceof MalformedResponseError ? 'invalidMessages' : 'timeoutMessages');
    return undefined;
  }
  try {
    const blocks = items.map((item) => blockFromFields(item, deps.reader.common));
    if (blocks.length > asked || blocks.some((b, i) => b.header.number !== start + BigInt(i))) { deps.report(peer, 'unexpectedMessages'); return undefined; }
    await senders?.prime(blocks);
    return { peer, asked, blocks };
  } catch {
    deps.report(peer, 'invalidMessages');
    return undefined;
  }
}

/**
 * Downloads up to `target.highest` (or until our chain is as heavy as the target's). Batches are
 * asked of `sources` in turn (the target first, then other peers at least as far ahead; the array is
 * read at each request, so peers whose status arrives during the download join it), up to
 * IN_FLIGHT at a time, and imported in order as they arrive, with the batches after it that have
 * arrived and link to it (RUN_BLOCKS at most, the first run one batch of FIRST_BATCH). When a run is
 * handed to the chain, the IN_FLIGHT batches after it are asked for. A batch that fails or does
 * not link is asked of the target again; when that fails too, the target is given up. A peer that served an invalid block is
 * reported and asked nothing more: the download goes on from the others, unless that peer was the
 * target. `onProgress` is told the head after each run.
 */
export async function download(
  deps: DownloadDeps, target: Target, sources: readonly PeerIdStr[], onProgress: (head: bigint) => void,
): Promise<void> {
  const { reader } = deps;
  const senders = target.highest - reader.head().number >= RECOVER_OFF_THREAD_FROM ? new SenderRecovery(reader.network) : undefined;
  try {
    await fetchAndImport(deps, target, sources, onProgress, senders);
  } finally {
    await senders?.close();
  }
}

async function fetchAndImport(
  deps: DownloadDeps, target: Target, sources: readonly PeerIdStr[], onProgress: (head: bigint) => void, senders: SenderRecovery | undefined,
): Promise<void> {
  const { reader, chain } = deps;
  let cursor = reader.head().number + 1n; // next block number to import
  let back = 0n;
  let turn = 0;
  const inFlight = new Map<bigint, Promise<Batch | undefined>>();
  /** The batches in flight that have arrived (one that failed is not here). */
  const arrived = new Map<bigint, Batch>();
  /** Peers that served an invalid block. */
  const liars = new Set<PeerIdStr>();
  /** The download's first request is FIRST_BATCH blocks, the batches after it SYNC_BATCH each. */
  const firstAt = cursor > 1n ? cursor : 1n;
  const countAt = (start: bigint) => (start === firstAt ? FIRST_BATCH : SYNC_BATCH);
  const fetch = (peer: PeerIdStr, start: bigint) => fetchBatch(deps, peer, start, countAt(start), senders);
  const ask = (start: bigint) => {
    if (inFlight.has(start)) return;
    let peer = sources[turn++ % sources.length]!;
    if (liars.has(peer)) peer = target.peer;
    const batch = fetch(peer, start);
    inFlight.set(start, batch);
    void batch.then((b) => { if (b && inFlight.get(start) === batch) arrived.set(start, b); });
  };
  const forget = (start: bigint) => { inFlight.delete(start); arrived.delete(start); };
  const forgetAll = () => { inFlight.clear(); arrived.clear(); };
  /** Asks for the IN_FLIGHT batches from `from` on that are not asked yet, within what the target said it has. */
  const askFrom = (from: bigint) => {
    for (let k = 0, at = from; k < IN_FLIGHT && at <= target.highest; k++, at += BigInt(countAt(at))) ask(at);
  };
  // The first run is one batch: its blocks run on code not yet optimised, and the head moves only once a run is written.
  let firstRun = true;
  for (;;) {
    if (target.td !== undefined && reader.head().totalDifficulty >= target.td) return;
    const start = cursor > 1n ? cursor : 1n;
    // Keep the pipe full ahead of the cursor (the next batch even beyond what the target said it has).
    ask(start);
    askFrom(start);
    let served = await inFlight.get(start)!;
    forget(start);
    const links = served !== undefined && served.blocks.length > 0 && (await reader.getHeader(served.blocks[0]!.header.parentHash)) !== undefined;
    // Another peer may have failed, or be on another branch than the target.
    if (!links && served?.peer !== target.peer) served = await fetch(target.peer, start);
    const batch = served?.blocks;
    if (!served || !batch || batch.length === 0) return;
    if (!(await reader.getHeader(batch[0]!.header.parentHash))) {
      if (start === 1n) { deps.report(target.peer, 'invalidBlocks'); return; } // no common ancestor: not our chain
      back = back === 0n ? 64n : back * 2n; // our chains fork further back
      cursor = start - back;
      forgetAll();
      continue;
    }
    const run = [served];
    let last = served;
    let end = start + BigInt(batch.length); // the block after the run
    while (!firstRun && last.blocks.length === last.asked && end - start + BigInt(countAt(end)) <= BigInt(RUN_BLOCKS)) {
      const more = arrived.get(end);
      if (!more?.blocks.length || !equalsBytes(more.blocks[0]!.header.parentHash, last.blocks[last.blocks.length - 1]!.hash)) break;
      forget(end);
      run.push((last = more));
      end += BigInt(more.blocks.length);
    }
    const blocks = run.length === 1 ? batch : run.flatMap((b) => b.blocks);
    // The batches after the run are asked for while it executes: they arrive meanwhile, not after it.
    if (last.blocks.length === last.asked) askFrom(end);
    // A minute per block, as when they were imported one by one.
    const outcomes = await chain.ask('blocks.import', { blocks }, 60_000 * blocks.length);
    const invalid = outcomes.find((o) => o.result === 'INVALID_BLOCK');
    if (invalid) {
      const n = invalid.block.header.number;
      const liar = run.find((b) => n <= b.blocks[b.blocks.length - 1]!.header.number)!.peer;
      log.warn(`invalid block #${n} from ${liar.slice(-8)}: ${invalid.reason}`);
      deps.report(liar, 'invalidBlocks');
      if (liar === target.peer) return;
      liars.add(liar);
      cursor = reader.head().number + 1n; // the blocks before the invalid one are stored
      forgetAll();
      continue;
    }
    if (outcomes.some((o) => o.result === 'NO_PARENT')) { forgetAll(); continue; } // re-ask from the new head
    cursor = end;
    firstRun = false;
    onProgress(reader.head().number);
    if (last.blocks.length < last.asked) forgetAll(); // the source had no more: the rest are asked again
  }
}

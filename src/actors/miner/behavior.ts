/**
 * Miner: builds templates from the pool on the head (with eligible sibling blocks as uncles),
 * keeps the last 20 by hashForMergedMining, and turns solutions into sealed blocks for the chain.
 * The built-in client mines a parent block and submits it through `submit`, exactly as
 * mnr_submitBitcoinBlock does for an external miner.
 */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex, setLengthRight } from '@ethereumjs/util';
import type { Hex } from '../../chain/codec/bytes.ts';
import { makeBlock, type Block } from '../../chain/codec/block.ts';
import { headerHash, type BlockHeader } from '../../chain/codec/header.ts';
import type { ChainView } from '../../chain/reader.ts';
import type { StateEdit } from '../../chain/execution/blockRunner.ts';
import type { Template } from '../../chain/writer.ts';
import { NodeError } from '../../errors.ts';
import {
  compressCoinbase, findTaggedHash, meetsTarget, parentBlockTemplate, parentHeaderHash, reverseBytes,
  serializeParentHeader, sha256Midstate, solveParentHeader, targetToHex, templateSolution, verifyMergedMiningProof,
  type ParentBlockTemplate, type ParentSolution,
} from '../../mergedmining/index.ts';
import type { ActorRef, Behavior } from '../kernel/index.ts';
import type { ChainProtocol } from '../chain/index.ts';
import type { TxPoolProtocol } from '../txpool/index.ts';
import type { MinerOptions, MiningMode } from './options.ts';
import type { MinerProtocol, MiningStatus, SubmitResult, Work } from './protocol.ts';
import { logger } from '../../log.ts';

const log = logger('miner');

/** Templates kept for late solutions (docs/merged-mining.md "Flow"); eth_getWork work likewise. */
export const TEMPLATES_KEPT = 20;
/**
 * hardhat_mine's blocks without transactions written (and published) together, at most this many at a time: the
 * batch of a run is prepared on the main thread (about seven operations a block), and 64 blocks keep the pause
 * other requests see under 10 ms; runs of 250 and 1,000 were no faster (docs/performance.md "Mining many blocks").
 */
const MINED_RUN = 64n;
/** Sibling blocks remembered as uncle candidates. */
const SIBLINGS_KEPT = 32;
const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** An external miner's hash-rate report counts for this long. */
const REPORT_TTL_MS = 60_000;

interface EthWork { readonly template: ParentBlockTemplate; readonly target: bigint }

interface MinerState {
  /** Insertion-ordered maps: oldest first. */
  readonly templates: Map<Hex, Template>;
  readonly ethWork: Map<Hex, EthWork>;
  readonly siblings: Map<Hex, BlockHeader>;
  readonly reports: Map<Hex, { hashesPerSecond: bigint; atMs: number }>;
  /** Hashes the built-in client computed, for eth_hashrate: one entry per minute (an entry per block would grow by thousands a minute under automine). */
  readonly hashLog: { atMs: number; hashes: number }[];
  current: Template | undefined;
  /** Transactions arrived since `current` was built. */
  stale: boolean;
  /** The current work was already handed out once (mnr_getWork `notify`). */
  notified: boolean;
  autoScheduled: boolean;
  extraNonce: number;
  timer: NodeJS.Timeout | undefined;
  /** The configured mode, or 'off' while evm_stopMining holds it. */
  mode: MiningMode;
  /** Interval between blocks in 'interval' mode (evm_setIntervalMining changes it). */
  blockTimeMs: number;
  /**
   * evm_increaseTime: seconds added to the clock for every block's timestamp (a running offset, as Hardhat and
   * Anvil). Below zero after evm_revert set the clock back to a snapshot's time.
   */
  timeOffsetSec: bigint;
  /** Paid the fees of the blocks this node builds: --coinbase, or what hardhat_setCoinbase set. */
  coinbase: Uint8Array;
  /** evm_setNextBlockTimestamp: the next block's exact timestamp, until a block of ours carried it. */
  nextTimestamp: bigint | undefined;
}

const nowSec = () => BigInt(Math.floor(Date.now() / 1000));
/** The time the next block of ours asks for: the one set for it, or the clock with its offset (the chain keeps it above its parent's). */
const nextBlockTime = (s: MinerState) => s.nextTimestamp ?? nowSec() + s.timeOffsetSec;
/** Later blocks go on from `time`, the last block's set time, as in Hardhat: the clock's offset keeps it (a time behind the clock leaves none). */
function goOnFrom(s: MinerState, time: bigint): void {
  const offset = time - nowSec();
  s.timeOffsetSec = offset > 0n ? offset : 0n;
  s.nextTimestamp = undefined;
}

const remember = <V>(map: Map<Hex, V>, key: Hex, value: V, limit: number) => {
  map.set(key, value);
  while (map.size > limit) map.delete(map.keys().next().value as Hex);
};

const rejected = (message: string) => new NodeError('MM_SUBMIT_REJECTED', message);

/** The built-in client's parent header carries the block's time in 32 bits: no later block can be sealed. */
const LATEST_PARENT_TIME = 2n ** 32n - 1n;

export function minerBehavior(
  opts: MinerOptions,
  deps: { reader: ChainView; chain: ActorRef<ChainProtocol>; txpool: ActorRef<TxPoolProtocol>; self: () => ActorRef<MinerProtocol> },
): Behavior<MinerProtocol, MinerState> {
  const { reader, chain, txpool } = deps;

  const poolExecutable = () => txpool.ask('pool.executable', { maxGas: reader.head().header.gasLimit });

  /** A template on the head: the pool's executable transactions (or `executable`, already asked for), or development edits alone. */
  async function build(s: MinerState, stateEdits?: readonly StateEdit[], executable?: readonly TypedTransaction[]): Promise<Template> {
    const txs = stateEdits ? [] : executable ?? await poolExecutable();
    const template = await chain.ask('block.build', {
      coinbase: s.coinbase, txs, stateEdits, timestamp: nextBlockTime(s), minimumGasPriceTarget: opts.minGasPriceTarget,
      uncleCandidates: [...s.siblings.values()].reverse(),
    }, 30_000);
    // A transaction that does not fit waits for the next block; one the rising minimum gas price overtook while it
    // waited stays too, pending and visible until it expires or is replaced (docs/rpc-compatibility.md "Gas price").
    const dropped = template.rejected.filter((r) => !r.reason.includes('does not fit') && !r.reason.includes("lower than block's minimum"));
    if (dropped.length) {
      txpool.tell({ type: 'tx.dropped', hashes: dropped.map((r) => bytesToHex(r.tx.hash()) as Hex), reason: 'invalid at inclusion' });
    }
    remember(s.templates, bytesToHex(template.hashForMergedMining) as Hex, template, TEMPLATES_KEPT);
    if (s.current === undefined || bytesToHex(s.current.header.parentHash) !== bytesToHex(template.header.parentHash)) s.notified = false;
    s.current = template;
    s.stale = false;
    return template;
  }

  /** The current template, rebuilt when the head moved or transactions arrived since. */
  async function currentTemplate(s: MinerState): Promise<Template> {
    const t = s.current;
    if (t && !s.stale && bytesToHex(t.header.parentHash) === bytesToHex(reader.head().hash)) return t;
    return build(s);
  }

  /** The block `solution` seals, once its proof is checked against `template` (the import checks it again). */
  function sealedBlock(template: Template, solution: ParentSolution, compressedCoinbase: Uint8Array): Block {
    const where = `at height ${template.header.number}`;
    if (solution.header.length !== 80) throw rejected(`Invalid block supplied by miner: parent-chain header must be 80 bytes ${where}`);
    const proof = verifyMergedMiningProof({
      header: solution.header, coinbase: compressedCoinbase, proof: solution.proof, hashForMergedMining: template.hashForMergedMining,
      difficulty: template.header.difficulty,
    });
    if (!proof.ok) {
      const powHash = bytesToHex(reverseBytes(parentHeaderHash(solution.header)));
      const key = bytesToHex(template.hashForMergedMining);
      throw rejected(`Invalid block supplied by miner: ${proof.reason} (parent-chain header ${powHash}, merged-mining hash ${key}) ${where}`);
    }
    const header = Object.freeze({
      ...template.header, parentChainHeader: solution.header, parentChainCoinbase: compressedCoinbase, parentChainMerkleProof: solution.proof,
    });
    return makeBlock(header, template.txs, template.uncles);
  }

  /** Seals the template a solution commits to and hands the block to the chain (docs/merged-mining.md "Flow", step 4). */
  async function submit(s: MinerState, solution: ParentSolution): Promise<SubmitResult> {
    let compressed: Uint8Array;
    let tagged: Uint8Array;
    try {
      compressed = compressCoinbase(solution.coinbase);
      tagged = findTaggedHash(compressed);
    } catch (err) {
      throw rejected(`Cannot publish block, ${(err as Error).message}`);
    }
    const key = bytesToHex(tagged) as Hex;
    const template = s.templates.get(key);
    if (!template) throw rejected(`Cannot publish block, could not find hash ${key} in the cache`);
    const block = sealedBlock(template, solution, compressed);
    const { header } = block;
    const outcome = await chain.ask('block.import', { block, origin: 'local' }, 30_000);
    if (outcome.result === 'INVALID_BLOCK') log.error(`block ${header.number} rejected: ${outcome.reason}`);
    for (const u of template.uncles) if (outcome.result === 'IMPORTED_BEST') s.siblings.delete(bytesToHex(headerHash(u)) as Hex);
    if (outcome.result === 'IMPORTED_BEST' && s.nextTimestamp !== undefined) goOnFrom(s, s.nextTimestamp);
    return { result: outcome.result, blockHash: bytesToHex(block.hash) as Hex, number: header.number };
  }

  /** The built-in client's solution for a template: a one-transaction parent block, as an external miner would mine it. */
  function builtinSolution(s: MinerState, template: Template): ParentSolution {
    const parent = parentBlockTemplate(template.hashForMergedMining, Number(template.header.timestamp), s.extraNonce++);
    const solved = solveParentHeader(parent.header, template.target, 1 << 24);
    if (!solved) throw new NodeError('UNAVAILABLE', `the built-in miner found no solution at difficulty ${template.header.difficulty}`);
    const minute = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;
    const last = s.hashLog[s.hashLog.length - 1];
    if (last?.atMs === minute) last.hashes += solved.nonce + 1;
    else s.hashLog.push({ atMs: minute, hashes: solved.nonce + 1 });
    return templateSolution(parent, solved.nonce);
  }

  /** The built-in client: mine a template and submit the solution like an external miner would. */
  function mineTemplate(s: MinerState, template: Template): Promise<SubmitResult> {
    return submit(s, builtinSolution(s, template));
  }

  /**
   * hardhat_mine: `count` blocks, the first as 'mine.now' mines it (the pool's transactions, the timestamp set
   * for it), then `interval` seconds apart. Blocks without transactions go to the chain as runs of MINED_RUN,
   * each written in one batch and published as one head change (docs/performance.md "Mining many blocks");
   * while the pool holds executable transactions, each block takes them as a block of its own would.
   */
  async function mineBlocks(s: MinerState, count: bigint, interval: bigint): Promise<null> {
    const parent = reader.head().header.timestamp;
    const first = nextBlockTime(s);
    const last = (first > parent ? first : parent + 1n) + (count - 1n) * interval;
    if (last > LATEST_PARENT_TIME) {
      throw new NodeError('INVALID_PARAMS', `invalid block count or interval: the last block's time would be ${last}, past 2^32 - 1 (February 2106), the latest a parent-chain header carries`);
    }
    await mineTemplate(s, await build(s));
    for (let mined = 1n; mined < count;) {
      let timestamp = reader.head().header.timestamp + interval;
      if ((await poolExecutable()).length) {
        s.nextTimestamp = timestamp;
        await mineTemplate(s, await build(s));
        mined++;
        continue;
      }
      const run = count - mined < MINED_RUN ? count - mined : MINED_RUN;
      try {
        for (let i = 0n; i < run; i++, timestamp += interval) {
          const template = await chain.ask('block.build', {
            coinbase: s.coinbase, txs: [], timestamp, minimumGasPriceTarget: opts.minGasPriceTarget,
          }, 30_000);
          const solution = builtinSolution(s, template);
          const outcome = await chain.ask('block.importPending', { block: sealedBlock(template, solution, compressCoinbase(solution.coinbase)) }, 30_000);
          if (outcome.result !== 'IMPORTED_BEST') throw new NodeError('UNAVAILABLE', `block ${template.header.number} of hardhat_mine was not imported: ${outcome.reason ?? outcome.result}`);
          // A pending block is made without waiting for the disk: other requests go between two, not after the run.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } finally {
        await chain.ask('blocks.write', {}, 30_000);
      }
      mined += run;
      goOnFrom(s, timestamp - interval);
    }
    return null;
  }

  /**
   * Automine builds one turn of the event loop after a transaction reaches an idle pool, so a test suite's
   * lone send waits for nothing. Transactions that came while the last block was built (a head change finds
   * them in the pool, or one joins others) wait one turn more: the sends read from their sockets in that turn
   * join the block, and fewer, fuller blocks cost less per transaction (docs/performance.md "Fuller blocks
   * under many senders").
   */
  function scheduleAuto(s: MinerState, fill: boolean) {
    if (s.autoScheduled) return;
    s.autoScheduled = true;
    const mine = () => {
      try { deps.self().tell({ type: 'mine.auto' }); } catch { /* stopped or full: the next event retries */ }
    };
    setImmediate(fill ? () => setImmediate(mine) : mine);
  }

  function status(s: MinerState): MiningStatus {
    const now = Date.now();
    while (s.hashLog.length && now - s.hashLog[0]!.atMs > HOUR_MS) s.hashLog.shift();
    for (const [id, r] of s.reports) if (now - r.atMs > REPORT_TTL_MS) s.reports.delete(id);
    const builtin = BigInt(s.hashLog.reduce((sum, e) => sum + e.hashes, 0)) / 3600n;
    const external = [...s.reports.values()].reduce((sum, r) => sum + r.hashesPerSecond, 0n);
    return { mode: s.mode, mining: s.mode !== 'off' || s.reports.size > 0, hashrate: builtin + external, coinbase: s.coinbase };
  }

  /** Switches block production: the interval timer runs only in 'interval' mode. */
  function setMode(s: MinerState, mode: MiningMode) {
    s.mode = mode;
    if (s.timer) clearInterval(s.timer);
    s.timer = undefined;
    if (mode === 'interval') {
      s.timer = setInterval(() => { try { deps.self().tell({ type: 'mine.tick' }); } catch { /* busy: skip a tick */ } }, s.blockTimeMs);
    }
  }

  const hex32 = (b: Uint8Array) => bytesToHex(setLengthRight(b, 32)) as Hex;

  return {
    init() {
      const s: MinerState = {
        templates: new Map(), ethWork: new Map(), siblings: new Map(), reports: new Map(), hashLog: [], current: undefined,
        stale: true, notified: false, autoScheduled: false, extraNonce: 0, timer: undefined, mode: 'off',
        blockTimeMs: opts.blockTimeMs, timeOffsetSec: 0n, nextTimestamp: undefined, coinbase: opts.coinbase,
      };
      setMode(s, opts.mode);
      // The pool may start with transactions (its journal's): automine does not wait for the next one.
      if (s.mode === 'auto') scheduleAuto(s, false);
      return s;
    },
    async onTell(s, msg) {
      switch (msg.type) {
        case 'pool.txAdded':
          s.stale = true;
          if (s.mode === 'auto' && msg.pending) scheduleAuto(s, !msg.alone);
          break;
        case 'pool.txRemoved':
          s.stale = true;
          break;
        case 'chain.headChanged':
          if (msg.rewound) {
            // A rewind (evm_revert, evm_reset) deletes the blocks above the new head: the chain goes on as
            // if they had never been mined, so neither they nor any other block up there is an uncle later.
            for (const [hash, header] of s.siblings) if (header.number > msg.head.number) s.siblings.delete(hash);
          } else {
            // Blocks a reorg dropped are siblings of the new chain: candidates for uncles like any other.
            for (const block of msg.removed) remember(s.siblings, bytesToHex(block.hash) as Hex, block.header, SIBLINGS_KEPT);
          }
          s.stale = true;
          if (s.mode === 'auto') scheduleAuto(s, true);
          break;
        case 'chain.blockImported':
          if (msg.best) break; // the head change that follows says it all
          remember(s.siblings, bytesToHex(msg.block.hash) as Hex, msg.block.header, SIBLINGS_KEPT);
          s.stale = true;
          break;
        case 'mine.auto': {
          s.autoScheduled = false;
          if (s.mode !== 'auto') break; // stopped since it was scheduled
          // Every head change schedules this: with nothing executable, no block is built (the pending block is built when asked).
          const txs = await poolExecutable();
          if (txs.length === 0) break;
          const template = await build(s, undefined, txs);
          if (template.txs.length > 0) await mineTemplate(s, template);
          break;
        }
        case 'mine.tick':
          if (s.mode !== 'interval') break;
          await mineTemplate(s, await build(s));
          break;
      }
      return s;
    },
    onAsk: {
      'work.get': async (s) => {
        const template = await currentTemplate(s);
        const work: Work = {
          blockHashForMergedMining: bytesToHex(template.hashForMergedMining) as Hex,
          target: targetToHex(template.target) as Hex,
          feesPaidToMiner: template.header.paidFees.toString(10),
          notify: !s.notified,
          parentBlockHash: bytesToHex(template.header.parentHash) as Hex,
        };
        s.notified = true;
        return [s, work];
      },
      'work.submit': async (s, solution) => [s, await submit(s, solution)],
      'work.ethGet': async (s) => {
        const template = await currentTemplate(s);
        const parent = parentBlockTemplate(template.hashForMergedMining, Math.floor(Date.now() / 1000), s.extraNonce++);
        const header = serializeParentHeader(parent.header);
        const midstate = bytesToHex(sha256Midstate(header.subarray(0, 64))) as Hex;
        remember(s.ethWork, midstate, { template: parent, target: template.target }, TEMPLATES_KEPT);
        return [s, [midstate, hex32(header.subarray(64, 76)), targetToHex(template.target) as Hex]];
      },
      'work.ethSubmit': async (s, { nonce, powHash }) => {
        const work = s.ethWork.get(powHash);
        if (!work || nonce >= 2n ** 32n) return [s, false];
        const header = serializeParentHeader({ ...work.template.header, nonce: Number(nonce) });
        if (!meetsTarget(header, work.target)) return [s, false];
        try {
          const outcome = await submit(s, templateSolution(work.template, Number(nonce)));
          return [s, outcome.result === 'IMPORTED_BEST' || outcome.result === 'IMPORTED_NOT_BEST'];
        } catch (err) {
          if (err instanceof NodeError && err.kind === 'MM_SUBMIT_REJECTED') return [s, false]; // stale work
          throw err;
        }
      },
      'hashrate.report': (s, { id, hashesPerSecond }) => {
        s.reports.set(id, { hashesPerSecond, atMs: Date.now() });
        return [s, true];
      },
      'mine.now': async (s) => [s, await mineTemplate(s, await build(s))],
      'mine.blocks': async (s, { count, interval }) => [s, await mineBlocks(s, count, interval)],
      'state.edit': async (s, { edits }) => [s, await mineTemplate(s, await build(s, edits))],
      'mining.status': (s) => [s, status(s)],
      'mining.set': (s, { on }) => {
        setMode(s, on ? (opts.mode === 'off' ? 'auto' : opts.mode) : 'off');
        if (s.mode === 'auto') scheduleAuto(s, false); // what waited while mining was stopped goes now
        return [s, s.mode];
      },
      'mining.mode': (s, { mode, blockTimeMs }) => {
        if (blockTimeMs !== undefined) s.blockTimeMs = blockTimeMs;
        setMode(s, mode);
        if (s.mode === 'auto') scheduleAuto(s, false);
        return [s, s.mode];
      },
      'time.increase': (s, { seconds }) => {
        if (seconds > 0n && nowSec() + s.timeOffsetSec + seconds > LATEST_PARENT_TIME) {
          throw new NodeError('INVALID_PARAMS', `invalid number of seconds 0x${seconds.toString(16)}: the next block's time would pass `
            + `2^32 - 1 (February 2106), the latest a parent-chain header carries (the offset is 0x${s.timeOffsetSec.toString(16)})`);
        }
        if (seconds > 0n) {
          s.timeOffsetSec += seconds;
          s.stale = true;
        }
        return [s, s.timeOffsetSec];
      },
      'time.setNext': (s, { timestamp }) => {
        const parent = reader.head().header.timestamp;
        if (timestamp <= parent || timestamp > LATEST_PARENT_TIME) {
          throw new NodeError('INVALID_PARAMS', `invalid timestamp ${timestamp}: the next block's must be above the latest block's (${parent}) and at most 2^32 - 1 (February 2106)`);
        }
        s.nextTimestamp = timestamp;
        s.stale = true;
        return [s, null];
      },
      'time.reset': (s) => {
        s.timeOffsetSec = 0n;
        s.nextTimestamp = undefined;
        s.stale = true;
        return [s, null];
      },
      'coinbase.set': (s, { address }) => {
        s.coinbase = address;
        s.stale = true;
        return [s, null];
      },
      'time.save': (s) => [s, { offsetSec: s.timeOffsetSec, nextTimestamp: s.nextTimestamp, savedAtSec: nowSec() }],
      'time.restore': (s, { saved }) => {
        // As Hardhat: the next block's time is the one it would have had at the snapshot.
        s.timeOffsetSec = saved.offsetSec - (nowSec() - saved.savedAtSec);
        s.nextTimestamp = saved.nextTimestamp;
        s.stale = true;
        return [s, null];
      },
      'block.pending': async (s) => [s, await currentTemplate(s)],
    },
    onStop(s) {
      if (s.timer) clearInterval(s.timer);
    },
  };
}

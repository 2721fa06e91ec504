/**
 * Miner: builds templates from the pool on the head, keeps the last 20 by hashForMergedMining,
 * and turns solutions into sealed blocks for the chain. The built-in client seals with
 * src/mergedmining and submits through the very same `submit` an external miner reaches via mnr_*.
 */
import { bytesToHex } from '@ethereumjs/util';
import type { Hex } from '../../chain/bytes.ts';
import { makeBlock } from '../../chain/block.ts';
import type { ChainReader } from '../../chain/reader.ts';
import type { Template } from '../../chain/writer.ts';
import { NodeError } from '../../errors.ts';
import {
  buildMergedMiningSeal, compressCoinbase, findTaggedHash, meetsTarget, parentHeaderHash, reverseBytes, targetToHex,
} from '../../mergedmining/index.ts';
import type { ActorRef, Behavior } from '../kernel/index.ts';
import type { ChainProtocol } from '../chain/index.ts';
import type { TxPoolProtocol } from '../txpool/index.ts';
import type { MinerProtocol, MiningMode, Solution, SubmitResult, Work } from './protocol.ts';

export interface MinerOptions {
  mode: MiningMode;
  /** Interval between blocks in 'interval' mode. */
  blockTimeMs: number;
  coinbase: Uint8Array;
  /** The minimum gas price the miner moves blocks toward (1 % per block). */
  minGasPriceTarget: bigint;
}

/** Templates kept for late solutions (merged-mining.md §1). */
export const TEMPLATES_KEPT = 20;

interface MinerState {
  /** Insertion-ordered: oldest first. */
  readonly templates: Map<Hex, Template>;
  current: Template | undefined;
  /** Transactions arrived since `current` was built. */
  stale: boolean;
  /** The current work was already handed out once (mnr_getWork `notify`). */
  notified: boolean;
  autoScheduled: boolean;
  timer: NodeJS.Timeout | undefined;
}

export function minerBehavior(
  opts: MinerOptions,
  deps: { reader: ChainReader; chain: ActorRef<ChainProtocol>; txpool: ActorRef<TxPoolProtocol>; self: () => ActorRef<MinerProtocol> },
): Behavior<MinerProtocol, MinerState> {
  const { reader, chain, txpool } = deps;

  async function build(s: MinerState): Promise<Template> {
    const head = reader.head();
    const txs = await txpool.ask('pool.executable', { maxGas: head.header.gasLimit });
    const template = await chain.ask('block.build', {
      coinbase: opts.coinbase, txs, timestamp: BigInt(Math.floor(Date.now() / 1000)), minimumGasPriceTarget: opts.minGasPriceTarget,
    }, 30_000);
    const dropped = template.rejected.filter((r) => !r.reason.includes('does not fit'));
    if (dropped.length) {
      txpool.tell({ type: 'tx.dropped', hashes: dropped.map((r) => bytesToHex(r.tx.hash()) as Hex), reason: 'invalid at inclusion' });
    }
    const key = bytesToHex(template.hashForMergedMining) as Hex;
    s.templates.set(key, template);
    while (s.templates.size > TEMPLATES_KEPT) s.templates.delete(s.templates.keys().next().value as Hex);
    const parentChanged = s.current === undefined || bytesToHex(s.current.header.parentHash) !== bytesToHex(template.header.parentHash);
    if (parentChanged) s.notified = false;
    s.current = template;
    s.stale = false;
    return template;
  }

  /** Seals a template with a solution and hands the block to the chain. */
  async function submit(s: MinerState, solution: Solution): Promise<SubmitResult> {
    let compressed: Uint8Array;
    let tagged: Uint8Array;
    try {
      compressed = compressCoinbase(solution.coinbase);
      tagged = findTaggedHash(compressed);
    } catch (err) {
      throw new NodeError('MM_SUBMIT_REJECTED', `Cannot publish block, ${(err as Error).message}`);
    }
    const key = bytesToHex(tagged) as Hex;
    const template = s.templates.get(key);
    if (!template) throw new NodeError('MM_SUBMIT_REJECTED', `Cannot publish block, could not find hash ${key} in the cache`);
    if (solution.parentHeader.length !== 80) {
      throw new NodeError('MM_SUBMIT_REJECTED', `Invalid block supplied by miner: parent-chain header must be 80 bytes, got ${solution.parentHeader.length}`);
    }
    if (!meetsTarget(solution.parentHeader, template.target)) {
      const hash = bytesToHex(reverseBytes(parentHeaderHash(solution.parentHeader)));
      throw new NodeError('MM_SUBMIT_REJECTED', `Invalid block supplied by miner: parent-chain header hash ${hash} is above the target ${targetToHex(template.target)} at height ${template.header.number}`);
    }
    const header = Object.freeze({
      ...template.header, parentChainHeader: solution.parentHeader, parentChainCoinbase: compressed, parentChainMerkleProof: solution.proof,
    });
    const block = makeBlock(header, template.txs);
    const outcome = await chain.ask('block.import', { block }, 30_000);
    if (outcome.result === 'INVALID_BLOCK') console.error(`[miner] block ${header.number} rejected: ${outcome.reason}`);
    return { result: outcome.result, blockHash: bytesToHex(block.hash) as Hex, number: header.number };
  }

  /** The built-in client: seal the template at once (regtest targets are easy) and submit it. */
  async function mineTemplate(s: MinerState, template: Template): Promise<SubmitResult> {
    const seal = buildMergedMiningSeal(template.hashForMergedMining, template.header.difficulty, { time: Number(template.header.timestamp) });
    if (!seal) throw new NodeError('UNAVAILABLE', 'the built-in miner could not solve the work');
    return submit(s, { parentHeader: seal.header, coinbase: seal.fullCoinbase, proof: seal.proof });
  }

  function scheduleAuto(s: MinerState) {
    if (s.autoScheduled) return;
    s.autoScheduled = true;
    setImmediate(() => {
      try { deps.self().tell({ type: 'mine.auto' }); } catch { /* stopped or full: the next event retries */ }
    });
  }

  return {
    init() {
      const s: MinerState = { templates: new Map(), current: undefined, stale: true, notified: false, autoScheduled: false, timer: undefined };
      if (opts.mode === 'interval') {
        s.timer = setInterval(() => { try { deps.self().tell({ type: 'mine.tick' }); } catch { /* busy: skip a tick */ } }, opts.blockTimeMs);
      }
      return s;
    },
    async onTell(s, msg) {
      switch (msg.type) {
        case 'pool.txAdded':
          s.stale = true;
          if (opts.mode === 'auto' && msg.pending) scheduleAuto(s);
          break;
        case 'chain.headChanged':
          s.stale = true;
          if (opts.mode === 'auto') scheduleAuto(s);
          break;
        case 'mine.auto': {
          s.autoScheduled = false;
          const template = await build(s);
          if (template.txs.length > 0) await mineTemplate(s, template);
          break;
        }
        case 'mine.tick':
          await mineTemplate(s, await build(s));
          break;
      }
      return s;
    },
    onAsk: {
      'work.get': async (s) => {
        const head = reader.head();
        let template = s.current;
        if (!template || s.stale || bytesToHex(template.header.parentHash) !== bytesToHex(head.hash)) template = await build(s);
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
      'mine.now': async (s) => [s, await mineTemplate(s, await build(s))],
      'mining.status': (s) => [s, { mode: opts.mode, mining: opts.mode !== 'off' }],
    },
    onStop(s) {
      if (s.timer) clearInterval(s.timer);
    },
  };
}

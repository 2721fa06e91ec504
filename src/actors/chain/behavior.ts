/**
 * The chain actor's rules: every write goes through the one ChainWriter, and what changed is
 * published on the bus (a block imported, the head moved), a run of synced or mined blocks as one head change.
 */
import { ChainWriter, mergeHeadChanges, type ImportOutcome } from '../../chain/writer.ts';
import type { ChainReader } from '../../chain/reader.ts';
import type { Behavior, EventBus } from '../kernel/index.ts';
import type { NodeEvent } from '../events.ts';
import type { BlockOrigin, ChainProtocol } from './protocol.ts';

export interface ChainDeps {
  readonly reader: ChainReader;
  readonly bus: EventBus<NodeEvent>;
  /** Told how long each import (a block, or a run of synced blocks) took. */
  readonly observeImport?: (seconds: number, blocks: number) => void;
}

export function chainBehavior({ reader, bus, observeImport }: ChainDeps): Behavior<ChainProtocol, ChainWriter> {
  const writer = new ChainWriter(reader);

  function announce({ result, block }: ImportOutcome, origin: BlockOrigin): void {
    if (result === 'IMPORTED_BEST' || result === 'IMPORTED_NOT_BEST') bus.publish({ type: 'chain.blockImported', block, best: result === 'IMPORTED_BEST', origin });
  }

  /** Announces each block of a run, and publishes the run's head changes as one. */
  function announceRun(outcomes: readonly ImportOutcome[], origin: BlockOrigin): void {
    for (const outcome of outcomes) announce(outcome, origin);
    const change = mergeHeadChanges(outcomes.flatMap((o) => (o.headChange ? [o.headChange] : [])));
    if (change) bus.publish({ type: 'chain.headChanged', ...change });
  }

  /** The outcomes of a mined run's blocks imported as pending ('block.importPending'), and the time their imports took. */
  let run: { outcomes: ImportOutcome[]; seconds: number } = { outcomes: [], seconds: 0 };
  /** Writes the pending run, then tells what it changed: every other write goes after it. */
  async function writeRun(s: ChainWriter): Promise<void> {
    const { outcomes, seconds } = run;
    if (!outcomes.length) return;
    run = { outcomes: [], seconds: 0 };
    const started = performance.now();
    await s.writePending();
    observeImport?.(seconds + (performance.now() - started) / 1000, outcomes.length);
    announceRun(outcomes, 'local');
  }

  return {
    async init() {
      run = { outcomes: [], seconds: 0 };
      await reader.store.open();
      await writer.init();
      return writer;
    },
    // The chain hears no events: it is only asked.
    onTell: (s) => s,
    onAsk: {
      'block.build': async (s, req) => [s, await s.build(req)],
      'block.import': async (s, { block, origin }) => {
        await writeRun(s);
        const started = performance.now();
        const outcome = await s.import(block);
        observeImport?.((performance.now() - started) / 1000, 1);
        announce(outcome, origin);
        if (outcome.headChange) bus.publish({ type: 'chain.headChanged', ...outcome.headChange });
        return [s, outcome];
      },
      'blocks.import': async (s, { blocks }) => {
        await writeRun(s);
        const started = performance.now();
        const outcomes = await s.importRun(blocks);
        observeImport?.((performance.now() - started) / 1000, outcomes.length);
        announceRun(outcomes, 'peer');
        return [s, outcomes];
      },
      'block.importPending': async (s, { block }) => {
        const started = performance.now();
        const outcome = await s.importPending(block);
        run.outcomes.push(outcome);
        run.seconds += (performance.now() - started) / 1000;
        return [s, outcome];
      },
      'blocks.write': async (s) => {
        await writeRun(s);
        return [s, null];
      },
      'head.rewind': async (s, { number }) => {
        await writeRun(s);
        const change = await s.rewind(number);
        bus.publish({ type: 'chain.headChanged', ...change });
        return [s, change];
      },
    },
    async onStop() {
      await reader.store.close();
    },
  };
}

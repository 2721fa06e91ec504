/**
 * The chain actor's rules: every write goes through the one ChainWriter, and what changed is
 * published on the bus (a block imported, the head moved), a run of synced blocks as one head change.
 */
import { ChainWriter, mergeHeadChanges, type HeadChange, type ImportOutcome } from '../../chain/writer.ts';
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

  return {
    async init() {
      await reader.store.open();
      await writer.init();
      return writer;
    },
    // The chain hears no events: it is only asked.
    onTell: (s) => s,
    onAsk: {
      'block.build': async (s, req) => [s, await s.build(req)],
      'block.import': async (s, { block, origin }) => {
        const started = performance.now();
        const outcome = await s.import(block);
        observeImport?.((performance.now() - started) / 1000, 1);
        announce(outcome, origin);
        if (outcome.headChange) bus.publish({ type: 'chain.headChanged', ...outcome.headChange });
        return [s, outcome];
      },
      'blocks.import': async (s, { blocks }) => {
        const started = performance.now();
        const outcomes = await s.importRun(blocks);
        observeImport?.((performance.now() - started) / 1000, outcomes.length);
        const changes: HeadChange[] = [];
        for (const outcome of outcomes) {
          announce(outcome, 'peer');
          if (outcome.headChange) changes.push(outcome.headChange);
        }
        const change = mergeHeadChanges(changes);
        if (change) bus.publish({ type: 'chain.headChanged', ...change });
        return [s, outcomes];
      },
      'head.rewind': async (s, { number }) => {
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

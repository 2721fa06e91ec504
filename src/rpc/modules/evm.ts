/**
 * evm_* developer controls (rpc-methods.md §6): snapshots of the head, rewinding to them, mining on
 * demand, stopping and starting block production, and moving the next block's time forward.
 */
import { quantity } from '../../chain/bytes.ts';
import type { RpcDeps } from '../deps.ts';
import { invalidParams } from '../errors.ts';
import { method } from '../method.ts';
import type { Param } from '../params.ts';

/** A snapshot id as evm_snapshot returns it (hex), or a JSON number. */
const snapshotId: Param<bigint> = (raw, name) => {
  if (typeof raw === 'string' && /^0x[0-9a-fA-F]{1,16}$/.test(raw)) return BigInt(raw);
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  throw invalidParams(`invalid snapshot id ${JSON.stringify(raw)} (argument ${name}): expected a hex id such as 0x1`);
};

/** Seconds as a hex or decimal string, or a JSON number. */
const seconds: Param<bigint> = (raw, name) => {
  if (typeof raw === 'string' && /^(0x[0-9a-fA-F]{1,16}|-?\d{1,18})$/.test(raw)) return BigInt(raw);
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  throw invalidParams(`invalid number of seconds ${JSON.stringify(raw)} (argument ${name}): expected a hex or decimal string`);
};

/** Mining a block can take the built-in client a moment. */
const MINE_TIMEOUT_MS = 60_000;

/**
 * One owner for the dev controls: each call runs after the previous one finished, in arrival order, so
 * concurrent calls see each other's effects (docs/hardening.md "Developer controls").
 */
function inOrder() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(run: () => Promise<T> | T): Promise<T> => {
    const next = last.then(run);
    last = next.catch(() => undefined);
    return next;
  };
}

export const evmModule = (deps: Pick<RpcDeps, 'reader' | 'chain' | 'miner'>) => {
  /** Saved head numbers; a snapshot's id is its position + 1. In memory, as the reference keeps them. */
  const snapshots: bigint[] = [];
  const serial = inOrder();
  /** Moves the head back (dropping the pool); false when the head is at or below `number` already. */
  const rewindTo = async (number: bigint) => {
    if (number >= deps.reader.head().number) return false;
    await deps.chain.ask('head.rewind', { number }, MINE_TIMEOUT_MS);
    return true;
  };

  return {
    evm_snapshot: method([], () => serial(() => {
      snapshots.push(deps.reader.head().number);
      return quantity(snapshots.length);
    })),
    /**
     * Back to the snapshot's head; later snapshots are discarded, this one stays usable. `false` when
     * there is nothing to undo (of concurrent reverts to one snapshot, the first wins).
     */
    evm_revert: method([['id', snapshotId]], ([id]) => serial(async () => {
      if (id < 1n || id > BigInt(snapshots.length)) {
        const known = snapshots.length ? `ids 0x1 to ${quantity(snapshots.length)} exist` : 'no snapshot was taken';
        throw invalidParams(`unknown snapshot id ${quantity(id < 0n ? 0n : id)}: ${known}`);
      }
      const reverted = await rewindTo(snapshots[Number(id) - 1]!);
      snapshots.length = Number(id);
      return reverted;
    })),
    evm_reset: method([], () => serial(async () => {
      await rewindTo(0n);
      snapshots.length = 0;
      return null;
    })),
    evm_mine: method([], () => serial(async () => {
      await deps.miner.ask('mine.now', {}, MINE_TIMEOUT_MS);
      return null;
    })),
    evm_startMining: method([], () => serial(async () => {
      await deps.miner.ask('mining.set', { on: true });
      return null;
    })),
    evm_stopMining: method([], () => serial(async () => {
      await deps.miner.ask('mining.set', { on: false });
      return null;
    })),
    evm_increaseTime: method([['seconds', seconds]], ([s]) => serial(async () => quantity(await deps.miner.ask('time.increase', { seconds: s })))),
  };
};

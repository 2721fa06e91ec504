/**
 * evm_* developer controls (README "Developer controls (evm_*)", docs/rpc-compatibility.md "Developer controls"): snapshots of the head, rewinding to them, mining on
 * demand, stopping and starting block production, and moving block time forward; plus the names
 * Hardhat's and Foundry's tooling call them by (docs/rpc-compatibility.md "Developer controls").
 * Served on a regtest node outside hosted mode only.
 */
import { bigIntToBytes, setLengthLeft } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import type { SavedClock } from '../../actors/miner/index.ts';
import { hex, quantity } from '../../chain/codec/bytes.ts';
import type { StateEdit } from '../../chain/execution/blockRunner.ts';
import type { RpcDeps } from '../deps.ts';
import { ImpersonatedAccounts } from '../impersonation.ts';
import { invalidParams } from '../errors.ts';
import { method, unavailable, type Methods } from '../method.ts';
import { address, bool, data, fail, hash32, optional, quantity as quantityParam, type Param } from '../params.ts';
import { MAX_TIMER_MS } from '../../machines/clock.ts';

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

/** A whole number of seconds or milliseconds below 2^53, as a hex or decimal string or a JSON number. */
const wholeNumber = (what: string): Param<bigint> => (raw, name) => {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return BigInt(raw);
  if (typeof raw === 'string' && /^(0x[0-9a-fA-F]{1,13}|\d{1,15})$/.test(raw)) return BigInt(raw);
  return fail(name, what, raw);
};
const timestamp = wholeNumber('a timestamp in seconds (hex, decimal string or number)');
/** Interval mining's milliseconds between blocks: at most what a timer waits (MAX_TIMER_MS). */
const milliseconds: Param<bigint> = (raw, name) => {
  const ms = wholeNumber('milliseconds (hex, decimal string or number)')(raw, name);
  return ms <= BigInt(MAX_TIMER_MS) ? ms : fail(name, `at most ${MAX_TIMER_MS} milliseconds (about 24.8 days)`, raw);
};
/**
 * hardhat_mine / anvil_mine: at most this many blocks per request. A governor's voting period is about
 * 50,000 blocks, which tests mine in one call; each block here is built, sealed and stored (about a quarter
 * of a millisecond), and other requests are served meanwhile (docs/performance.md "Mining many blocks").
 */
const MAX_MINED_BLOCKS = 100_000n;
const blockCount: Param<bigint> = (raw, name) => {
  const n = wholeNumber(`a block count from 1 to ${MAX_MINED_BLOCKS}`)(raw, name);
  return n >= 1n && n <= MAX_MINED_BLOCKS ? n : fail(name, `a block count from 1 to ${MAX_MINED_BLOCKS}`, raw);
};
/** evm_mine's optional argument: a timestamp (Hardhat, Ganache) or Anvil's {timestamp}. */
const mineOptions: Param<bigint | undefined> = (raw, name) => {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const t = (raw as Record<string, unknown>).timestamp;
    return t === undefined || t === null ? undefined : timestamp(t, `${name}.timestamp`);
  }
  return timestamp(raw, name);
};

/** Mining a block can take the built-in client a moment. */
const MINE_TIMEOUT_MS = 60_000;
/** hardhat_mine's time allowed per block beyond MINE_TIMEOUT_MS (a block takes about 0.25 ms on the development machine). */
const MS_PER_MINED_BLOCK = 5;

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

/** Why the developer controls are off, or undefined where they are served. */
export const devControlsOff = (network: string, hosted: boolean): string | undefined =>
  network !== 'regtest' ? `developer controls are served on regtest only, this node runs ${network}`
    : hosted ? 'developer controls are not served in hosted mode' : undefined;

/** The methods of evmModule, each answering -32601 with `why`. */
type EvmDeps = Pick<RpcDeps, 'reader' | 'chain' | 'miner' | 'txpool' | 'clientVersion'>;

export const evmModuleOff = (deps: EvmDeps, why: string): Methods =>
  Object.fromEntries(Object.keys(evmModule({ ...deps, impersonated: new ImpersonatedAccounts() })).map((name) => [name, unavailable(name, why)]));

export const evmModule = (deps: EvmDeps & { readonly impersonated: ImpersonatedAccounts }) => {
  /** Saved heads and block clocks; a snapshot's id is its position + 1. In memory, as the reference keeps them. */
  const snapshots: { readonly number: bigint; readonly clock: SavedClock }[] = [];
  /** hardhat_metadata's instanceId: new when the node starts and at every reset, as a new Hardhat network's. */
  let instanceId = hex(randomBytes(32));
  const serial = inOrder();
  /**
   * Moves the head back (dropping the pool) unless it is at or below `number` already. Answers once the pool
   * has dropped its transactions too: a kill -9 after the answer brings none of them back.
   */
  const rewindTo = async (number: bigint) => {
    if (number >= deps.reader.head().number) return;
    await deps.chain.ask('head.rewind', { number }, MINE_TIMEOUT_MS);
    await deps.txpool.ask('pool.sync', {});
  };

  const mine = async (at?: bigint) => {
    if (at !== undefined) await deps.miner.ask('time.setNext', { timestamp: at });
    await deps.miner.ask('mine.now', {}, MINE_TIMEOUT_MS);
  };
  const reset = () => serial(async () => {
    await rewindTo(0n);
    snapshots.length = 0;
    await deps.miner.ask('time.reset', {});
    deps.impersonated.clear();
    instanceId = hex(randomBytes(32));
    return null;
  });
  const getAutomine = async () => (await deps.miner.ask('mining.status', {})).mode === 'auto';
  const setAutomine = method([['enabled', bool]], ([on]) => serial(async () => {
    const { mode } = await deps.miner.ask('mining.status', {});
    if (on || mode === 'auto') await deps.miner.ask('mining.mode', { mode: on ? 'auto' : 'off' });
    return null;
  }));
  /** 0 stops interval mining (Hardhat); any other value mines a block every that many milliseconds. */
  const setIntervalMining = method([['interval', milliseconds]], ([ms]) => serial(async () => {
    if (ms > 0n) await deps.miner.ask('mining.mode', { mode: 'interval', blockTimeMs: Number(ms) });
    else if ((await deps.miner.ask('mining.status', {})).mode === 'interval') await deps.miner.ask('mining.mode', { mode: 'off' });
    return null;
  }));
  /** The total offset; 0x0 while a revert keeps the clock behind the real one (a QUANTITY has no sign). */
  const increaseTime = method([['seconds', seconds]], ([s]) => serial(async () => {
    const total = await deps.miner.ask('time.increase', { seconds: s });
    return quantity(total > 0n ? total : 0n);
  }));
  const setNextBlockTimestamp = method([['timestamp', timestamp]], ([t]) => serial(() => deps.miner.ask('time.setNext', { timestamp: t })));
  /** hardhat_mine / anvil_mine [blocks = 1, interval = 1 s]: blocks `interval` seconds apart. */
  const mineBlocks = method([['blocks', optional(blockCount, 1n)], ['interval', optional(timestamp, 1n)]], ([blocks, interval]) => serial(async () => {
    await deps.miner.ask('mine.blocks', { count: blocks, interval: interval > 0n ? interval : 1n }, MINE_TIMEOUT_MS + Number(blocks) * MS_PER_MINED_BLOCK);
    return null;
  }));
  const noArgs = <T>(handler: () => T) => method([], handler);
  /** Applies an edit in a block of its own, so it shows at `latest` at once (docs/rpc-compatibility.md "Developer controls"). */
  const applyEdit = (edit: StateEdit) => serial(async () => {
    await deps.miner.ask('state.edit', { edits: [edit] }, MINE_TIMEOUT_MS);
    return true;
  });
  const setBalance = method([['address', address], ['balance', quantityParam]], ([a, balance]) => applyEdit({ address: a, balance }));
  const setNonce = method([['address', address], ['nonce', quantityParam]], ([a, nonce]) => applyEdit({ address: a, nonce }));
  const setCode = method([['address', address], ['code', data]], ([a, code]) => applyEdit({ address: a, code }));
  const setStorageAt = method([['address', address], ['slot', quantityParam], ['value', hash32]], ([a, slot, value]) =>
    applyEdit({ address: a, storage: [setLengthLeft(bigIntToBytes(slot), 32), value] }));

  /** Whether the pool held the transaction and let it go; a mined one is -32602, as in Hardhat. */
  const dropTransaction = async (hash: Uint8Array) => {
    if (await deps.txpool.ask('pool.discard', { hash: hex(hash) })) return true;
    if (await deps.reader.txLocation(hash)) throw invalidParams(`transaction ${hex(hash)} cannot be dropped: it is mined`);
    return false;
  };
  /** Hardhat answers true or false; Anvil the hash, or null. */
  const drop = (anvil: boolean) => method([['hash', hash32]], ([h]) => serial(async () => {
    const dropped = await dropTransaction(h);
    return anvil ? (dropped ? hex(h) : null) : dropped;
  }));
  /** The blocks this node builds from now on pay this address; Hardhat answers true, Anvil null. */
  const setCoinbase = (answer: true | null) => method([['address', address]], ([a]) => serial(async () => {
    await deps.miner.ask('coinbase.set', { address: a });
    return answer;
  }));

  /** Hardhat answers true (stop: whether the account was impersonated); Anvil null. */
  const impersonate = (answer: boolean | null) => method([['address', address]], ([a]) => serial(() => {
    deps.impersonated.start(hex(a));
    return answer;
  }));
  const stopImpersonating = (anvil: boolean) => method([['address', address]], ([a]) => serial(() => {
    const was = deps.impersonated.stop(hex(a));
    return anvil ? null : was;
  }));

  return {
    evm_snapshot: method([], () => serial(async () => {
      snapshots.push({ number: deps.reader.head().number, clock: await deps.miner.ask('time.save', {}) });
      return quantity(snapshots.length);
    })),
    /**
     * Back to the snapshot's head and block clock; later snapshots are discarded, this one stays usable.
     * `true` also when no block came since: Hardhat's fixtures revert after every test, reading ones included.
     */
    evm_revert: method([['id', snapshotId]], ([id]) => serial(async () => {
      if (id < 1n || id > BigInt(snapshots.length)) {
        const known = snapshots.length ? `ids 0x1 to ${quantity(snapshots.length)} exist` : 'no snapshot was taken';
        throw invalidParams(`unknown snapshot id ${quantity(id < 0n ? 0n : id)}: ${known}`);
      }
      const saved = snapshots[Number(id) - 1]!;
      await rewindTo(saved.number);
      await deps.miner.ask('time.restore', { saved: saved.clock });
      snapshots.length = Number(id);
      return true;
    })),
    evm_reset: noArgs(reset),
    /** Optionally at a given timestamp (Hardhat: a number; Anvil: {timestamp}). */
    evm_mine: method([['timestamp', optional(mineOptions, undefined)]], ([at]) => serial(async () => {
      await mine(at);
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
    evm_increaseTime: increaseTime,
    evm_setNextBlockTimestamp: setNextBlockTimestamp,
    evm_setAutomine: setAutomine,
    evm_setIntervalMining: setIntervalMining,
    // The names Hardhat's and Anvil's tools use.
    /** What Hardhat's tools (hardhat-viem's test client among them) ask to know a development network by. */
    hardhat_metadata: noArgs(() => {
      const head = deps.reader.head();
      return {
        clientVersion: deps.clientVersion, chainId: Number(deps.reader.network.chainId), instanceId,
        latestBlockNumber: Number(head.number), latestBlockHash: hex(head.hash),
      };
    }),
    hardhat_getAutomine: noArgs(getAutomine),
    anvil_getAutomine: noArgs(getAutomine),
    anvil_setAutomine: setAutomine,
    anvil_setIntervalMining: setIntervalMining,
    anvil_increaseTime: increaseTime,
    anvil_setNextBlockTimestamp: setNextBlockTimestamp,
    hardhat_mine: mineBlocks,
    anvil_mine: mineBlocks,
    hardhat_reset: noArgs(reset),
    anvil_reset: noArgs(reset),
    hardhat_setBalance: setBalance,
    anvil_setBalance: setBalance,
    hardhat_setNonce: setNonce,
    anvil_setNonce: setNonce,
    hardhat_setCode: setCode,
    anvil_setCode: setCode,
    hardhat_setStorageAt: setStorageAt,
    anvil_setStorageAt: setStorageAt,
    hardhat_impersonateAccount: impersonate(true),
    anvil_impersonateAccount: impersonate(null),
    hardhat_stopImpersonatingAccount: stopImpersonating(false),
    anvil_stopImpersonatingAccount: stopImpersonating(true),
    hardhat_dropTransaction: drop(false),
    anvil_dropTransaction: drop(true),
    hardhat_setCoinbase: setCoinbase(true),
    anvil_setCoinbase: setCoinbase(null),
    anvil_autoImpersonateAccount: method([['enabled', bool]], ([on]) => serial(() => {
      deps.impersonated.setEveryone(on);
      return null;
    })),
  };
};

/** eth_call, eth_estimateGas, eth_sendRawTransaction (README "Method support"); the signing ones are in wallet.ts. */
import type { TypedTransaction } from '@ethereumjs/tx';
import { fromHex, hex, quantity } from '../../../chain/codec/bytes.ts';
import type { CallResult, TouchedState } from '../../../chain/calls.ts';
import { decodeTx, TxDecodeError } from '../../../chain/execution/blockRunner.ts';
import { CALL_STIPEND } from '../../../chain/execution/interpreter/gasWatch.ts';
import { revertReason } from '../../../chain/execution/revertReason.ts';
import { nextGasLimit } from '../../../chain/execution/rules.ts';
import { NodeError, txRejected } from '../../../errors.ts';
import { callView } from '../../blocks.ts';
import type { EvmDeps, RpcDeps } from '../../deps.ts';
import { invalidParams } from '../../errors.ts';
import { method } from '../../method.ts';
import { blockSelector, data, index, LATEST, optional, txArgs, type TxArgs } from '../../params.ts';
import { submitTx, submitTxAndWait, syncWaitMs } from '../../transactions.ts';

/** Largest signed transaction accepted (reference: 128 KiB). */
const MAX_RAW_TX_BYTES = 131_072;

/** The reference's revert error (docs/rpc-compatibility.md "Revert errors"): -32015, reason decoded from Error(string), raw data in `data`. */
function revertError(result: CallResult): NodeError {
  const reason = revertReason(result.returnValue);
  const text = reason === undefined ? 'transaction reverted' : `revert ${reason}`;
  return new NodeError('EXECUTION_REVERTED', `VM Exception while processing transaction: ${text}`, result.returnValue.length ? hex(result.returnValue) : undefined);
}

/** Runs with the list found so far until the list stops changing (more warm state can take other paths); as geth, at most a few rounds. */
const ACCESS_LIST_ROUNDS = 5;

type AccessList = [Uint8Array, Uint8Array[]][];

/**
 * The access list a call's touched state makes, as geth builds it: every touched account with the slots
 * touched in it, but the sender, the callee and the precompiles only when slots of theirs were touched
 * (they are warm anyway).
 */
function accessListOf(touched: TouchedState, exclude: ReadonlySet<string>): AccessList {
  const list: AccessList = [];
  for (const [address, slots] of touched) {
    if (slots.size === 0 && exclude.has(address)) continue;
    list.push([fromHex(`0x${address}`), [...slots].sort().map((slot) => fromHex(`0x${slot}`))]);
  }
  return list.sort(([a], [b]) => (hex(a) < hex(b) ? -1 : 1));
}

const sameList = (a: AccessList, b: AccessList) =>
  JSON.stringify(a.map(([x, keys]) => [hex(x), keys.map(hex)])) === JSON.stringify(b.map(([x, keys]) => [hex(x), keys.map(hex)]));

const failure = (result: CallResult) =>
  result.error === 'revert' ? revertError(result) : new NodeError('EXECUTION_FAILED', `VM execution failed: ${result.error}`);

/** Most gas a call's `gas` field may name (a uint64, as a transaction's gas limit). */
const MAX_GAS = 2n ** 64n - 1n;
/** eth_estimateGas stops once the gas it knows to succeed is within this many thousandths above what it knows to fail (go-ethereum's 1.5 %). */
const ESTIMATE_TOLERANCE_PERMILLE = 15n;

/** The call's gas limit: its own `gas` or the node's cap (--rpc-gas-cap), whichever is lower; beyond uint64 it is refused. */
export function callGas(args: TxArgs, gasCap: bigint, fallback = gasCap): bigint {
  if (args.gas !== undefined && args.gas > MAX_GAS) throw invalidParams(`invalid argument 0 (call).gas: ${args.gas} is more than 2^64-1`);
  const gas = args.gas ?? fallback;
  return gas < gasCap ? gas : gasCap;
}

/** eth_call, eth_estimateGas and eth_createAccessList: the EVM-running reads, served by the RPC workers (docs/rpc-workers.md). */
export const ethCallMethods = (deps: Pick<EvmDeps, 'reader' | 'calls' | 'pending' | 'gasCap'>) => {
  return {
    eth_call: method([['call', txArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const { header, calls } = await callView(deps, sel);
      const result = await calls.call(header, args, callGas(args, deps.gasCap));
      if (result.error) throw failure(result);
      return hex(result.returnValue);
    }),

    /**
     * A gas limit with which the call succeeds: the smallest where its first run shows it, else at most 1.5 % above
     * the smallest, by binary search; at most the call's gas or else the pending block's gas limit
     * (docs/rpc-conformance.md, "Error codes"), which follows from the head's (chain/execution/rules.ts).
     * Docs: docs/rpc-workers.md, "Estimates".
     */
    eth_estimateGas: method([['call', txArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const { header, calls } = await callView(deps, sel);
      const cap = callGas(args, deps.gasCap, nextGasLimit(deps.reader.network, deps.reader.head().header.gasLimit));
      const atCap = await calls.call(header, args, cap);
      if (atCap.error) {
        if (atCap.error === 'revert') throw revertError(atCap);
        throw new NodeError('EXECUTION_FAILED', `gas required exceeds allowance (${cap}) or always failing transaction: ${atCap.error}`);
      }
      // The first run usually shows the smallest limit: the gas used, or what its calls and stores needed left
      // (docs/rpc-workers.md, "Estimates"); one run with it confirms, and where a smaller one may do, it bounds the search.
      const { gasUsed, neededGas: needed } = atCap;
      if (needed?.gas === gasUsed) return quantity(gasUsed);
      let lo = gasUsed; // fails (the gas used is tried below unless more than it failed)
      let hi = cap; // succeeds
      if (needed && needed.gas < cap) {
        if ((await calls.call(header, args, needed.gas)).error) lo = needed.gas;
        else if (needed.exact) return quantity(needed.gas);
        else hi = needed.gas;
      }
      if (lo === gasUsed && !(await calls.call(header, args, gasUsed)).error) return quantity(gasUsed);
      // What such a call usually lacks is a callee's stipend it got back, or the 64th a call keeps: tried first.
      const likely = ((gasUsed + CALL_STIPEND) * 64n) / 63n;
      if (likely > lo && likely < hi) {
        if ((await calls.call(header, args, likely)).error) lo = likely;
        else hi = likely;
      }
      // Every call costs at least its intrinsic 21,000, so 1.5 % of the gas is always more than 1: no other bound is needed.
      while ((hi - lo) * 1_000n > hi * ESTIMATE_TOLERANCE_PERMILLE) {
        // Near the gas used first: the answer is rarely twice it.
        const half = (lo + hi) / 2n;
        const mid = half > lo * 2n ? lo * 2n : half;
        if ((await calls.call(header, args, mid)).error) lo = mid;
        else hi = mid;
      }
      return quantity(hi);
    }),

    /** {accessList, gasUsed[, error]}: the list that makes the call cheapest, and the gas it uses with it. */
    eth_createAccessList: method([['call', txArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const { header, calls } = await callView(deps, sel);
      const gas = callGas(args, deps.gasCap, header.gasLimit);
      let list: AccessList = args.accessList ?? [];
      for (let round = 1; ; round++) {
        const result = await calls.call(header, { ...args, accessList: list, reportAccessList: true }, gas);
        const callers = [args.from ?? new Uint8Array(20), ...(args.to ? [args.to] : [])];
        const exclude = new Set([...(result.precompiles ?? []), ...callers.map((a) => hex(a).slice(2))]);
        const next = accessListOf(result.touched ?? new Map(), exclude);
        if (sameList(next, list) || round === ACCESS_LIST_ROUNDS) {
          return {
            accessList: next.map(([address, keys]) => ({ address: hex(address), storageKeys: keys.map(hex) })),
            gasUsed: `0x${result.gasUsed.toString(16)}`,
            ...(result.error ? { error: result.error === 'revert' ? revertError(result).message : result.error } : {}),
          };
        }
        list = next;
      }
    }),
  };
};

export const ethSendMethods = (deps: RpcDeps) => {
  const decode = (raw: Uint8Array): TypedTransaction => {
    if (raw.length > MAX_RAW_TX_BYTES) throw txRejected(`transaction's size is higher than defined maximum: ${raw.length} > ${MAX_RAW_TX_BYTES}`);
    try {
      return decodeTx(raw, deps.reader.common);
    } catch (err) {
      if (err instanceof TxDecodeError && err.kind === 'rejected') throw txRejected(err.message);
      throw invalidParams(`Invalid input: ${(err as Error).message}`);
    }
  };
  return {
    eth_sendRawTransaction: method([['transaction', data]], ([raw]) => submitTx(deps, decode(raw))),
    /** EIP-7966: the receipt once the transaction's block is stored (docs/rpc-compatibility.md "Sync sends"). */
    eth_sendRawTransactionSync: method([['transaction', data], ['timeout', optional(index, 0)]], ([raw, waitMs], ctx) =>
      submitTxAndWait(deps, decode(raw), syncWaitMs(waitMs), ctx.signal)),
  };
};

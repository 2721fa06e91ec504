/** eth_call, eth_estimateGas, eth_sendRawTransaction, eth_sendTransaction, eth_sign (spec 4.3 'Calls and transactions'). */
import type { TypedTransaction } from '@ethereumjs/tx';
import { createLegacyTx } from '@ethereumjs/tx';
import { concatBytes, utf8ToBytes } from '@ethereumjs/util';
import secp256k1 from 'secp256k1';
import { hex, keccak256, uintBytes } from '../../../chain/bytes.ts';
import type { CallResult } from '../../../chain/calls.ts';
import { CALL_GAS_CAP } from '../../../chain/calls.ts';
import { decodeTx, TxDecodeError } from '../../../chain/execution.ts';
import { revertReason } from '../../../chain/revertReason.ts';
import { NodeError, txRejected } from '../../../errors.ts';
import { requireBlock } from '../../blocks.ts';
import type { RpcDeps } from '../../deps.ts';
import { invalidParams } from '../../errors.ts';
import { method } from '../../method.ts';
import { address, blockSelector, data, LATEST, optional, txArgs, type TxArgs } from '../../params.ts';

/** Largest signed transaction accepted (reference: 128 KiB). */
const MAX_RAW_TX_BYTES = 131_072;
/** eth_sendTransaction default gas (spec part 8). */
const DEFAULT_GAS = 90_000n;

/** The reference's revert error (rpc-methods.md §4.1): -32015, reason decoded from Error(string), raw data in `data`. */
function revertError(result: CallResult): NodeError {
  const reason = revertReason(result.returnValue);
  const text = reason === undefined ? 'transaction reverted' : `revert ${reason}`;
  return new NodeError('EXECUTION_REVERTED', `VM Exception while processing transaction: ${text}`, result.returnValue.length ? hex(result.returnValue) : undefined);
}

const failure = (result: CallResult) =>
  result.error === 'revert' ? revertError(result) : new NodeError('EXECUTION_REVERTED', `VM Exception while processing transaction: ${result.error}`);

export const ethCallMethods = (deps: RpcDeps) => {
  const { reader, calls } = deps;

  async function submit(tx: TypedTransaction): Promise<string> {
    return (await deps.txpool.ask('tx.submit', { tx })).hash;
  }

  function signerFor(from: Uint8Array | undefined, what: string): Uint8Array {
    if (!from) throw invalidParams(`invalid argument 0: ${what} needs 'from'`);
    const key = deps.accounts.get(hex(from));
    if (!key) throw invalidParams(`Could not find account for address: ${hex(from)} (this node holds no key for it)`);
    return key;
  }

  return {
    eth_call: method([['call', txArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const block = await requireBlock(reader, sel);
      const gas = args.gas !== undefined && args.gas < CALL_GAS_CAP ? args.gas : CALL_GAS_CAP;
      const result = await calls.call(block.header, args, gas);
      if (result.error) throw failure(result);
      return hex(result.returnValue);
    }),

    /** The smallest gas limit with which the call succeeds, by binary search. */
    eth_estimateGas: method([['call', txArgs], ['block', optional(blockSelector, LATEST)]], async ([args, sel]) => {
      const block = await requireBlock(reader, sel);
      const cap = args.gas ?? block.header.gasLimit;
      const atCap = await calls.call(block.header, args, cap);
      if (atCap.error) {
        if (atCap.error === 'revert') throw revertError(atCap);
        throw new NodeError('EXECUTION_REVERTED', `gas required exceeds allowance (${cap}) or always failing transaction: ${atCap.error}`);
      }
      // Usually the gas used suffices; refunds and the 63/64 call rule can need more.
      if (!(await calls.call(block.header, args, atCap.gasUsed)).error) return `0x${atCap.gasUsed.toString(16)}`;
      let lo = atCap.gasUsed; // fails
      let hi = cap; // succeeds
      while (hi - lo > 1n) {
        const mid = (lo + hi) / 2n;
        if ((await calls.call(block.header, args, mid)).error) lo = mid;
        else hi = mid;
      }
      return `0x${hi.toString(16)}`;
    }),

    eth_sendRawTransaction: method([['transaction', data]], async ([raw]) => {
      if (raw.length > MAX_RAW_TX_BYTES) throw txRejected(`transaction's size is higher than defined maximum: ${raw.length} > ${MAX_RAW_TX_BYTES}`);
      let tx: TypedTransaction;
      try {
        tx = decodeTx(raw, reader.common);
      } catch (err) {
        if (err instanceof TxDecodeError && err.kind === 'rejected') throw txRejected(err.message);
        throw invalidParams(`Invalid input: ${(err as Error).message}`);
      }
      return submit(tx);
    }),

    eth_sendTransaction: method([['transaction', txArgs]], async ([args]) => {
      const key = signerFor(args.from, 'eth_sendTransaction');
      const nonce = args.nonce ?? await deps.txpool.ask('pool.nextNonce', { sender: hex(args.from!) });
      return submit(signLegacy(args, nonce, key, deps));
    }),

    eth_sign: method([['address', address], ['message', data]], ([a, message]) => {
      const key = deps.accounts.get(hex(a));
      if (!key) throw invalidParams('Account not found: this node holds no unlocked key for it');
      const digest = keccak256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${message.length}`), message));
      const { signature, recid } = secp256k1.ecdsaSign(digest, key);
      return hex(concatBytes(signature, uintBytes(27 + recid)));
    }),
  };
};

function signLegacy(args: TxArgs, nonce: bigint, key: Uint8Array, deps: RpcDeps): TypedTransaction {
  return createLegacyTx({
    nonce, to: args.to, value: args.value ?? 0n, data: args.data, gasLimit: args.gas ?? DEFAULT_GAS,
    gasPrice: args.gasPrice ?? deps.reader.head().header.minimumGasPrice,
  }, { common: deps.reader.common }).sign(key);
}

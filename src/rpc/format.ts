/** Wire shapes of blocks, transactions, receipts and logs (docs/rpc-conformance.md "Shapes"). */
import type { TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { encodeBlock, type Block } from '../chain/codec/block.ts';
import { hex, quantity, type Hex } from '../chain/codec/bytes.ts';
import type { StoredReceipt } from '../chain/codec/block.ts';
import { headerHash as headerHashOf, mergedMiningBaseHash } from '../chain/codec/header.ts';
import { txLogEntries, type LogEntry } from '../chain/logs/logFilter.ts';
import { effectiveGasPrice } from '../chain/execution/txPrice.ts';
import { findTaggedHash, parentHeaderHash, reverseBytes } from '../mergedmining/index.ts';
import { JsonText } from './json.ts';

export interface TxPosition {
  readonly blockHash: Uint8Array;
  readonly blockNumber: bigint;
  readonly index: number;
}

const ZERO32 = `0x${'0'.repeat(64)}` as Hex;

export function formatTx(tx: TypedTransaction, pos: TxPosition | undefined, pendingBlockHash: Hex | null = null) {
  const t = tx as TypedTransaction & { accessList?: [Uint8Array, Uint8Array[]][]; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint };
  const out: Record<string, unknown> = {
    hash: hex(tx.hash()),
    nonce: quantity(tx.nonce),
    blockHash: pos ? hex(pos.blockHash) : pendingBlockHash,
    blockNumber: pos ? quantity(pos.blockNumber) : null,
    transactionIndex: pos ? quantity(pos.index) : null,
    from: hex(tx.getSenderAddress().bytes),
    to: tx.to ? hex(tx.to.bytes) : null,
    gas: quantity(tx.gasLimit),
    gasPrice: quantity(effectiveGasPrice(tx)),
    value: quantity(tx.value),
    input: hex(tx.data),
    v: quantity(tx.v ?? 0n),
    r: quantity(tx.r ?? 0n),
    s: quantity(tx.s ?? 0n),
    type: quantity(tx.type),
  };
  if (tx.type === 2) {
    out.maxFeePerGas = quantity(t.maxFeePerGas!);
    out.maxPriorityFeePerGas = quantity(t.maxPriorityFeePerGas!);
  }
  if (tx.type === 1 || tx.type === 2) {
    out.chainId = quantity(tx.common.chainId());
    out.yParity = quantity(tx.v ?? 0n);
    out.accessList = (t.accessList ?? []).map(([a, keys]) => ({ address: hex(a), storageKeys: keys.map(hex) }));
  } else if (tx.v !== undefined && tx.v >= 35n) {
    out.chainId = quantity((tx.v - 35n) / 2n);
  }
  return out;
}

/** The hash the parent-chain coinbase commits to; for genesis (no seal) the base hash. */
function hashForMergedMining(block: Block): Hex {
  try {
    return hex(findTaggedHash(block.header.parentChainCoinbase));
  } catch {
    return hex(mergedMiningBaseHash(block.header));
  }
}

export function formatBlock(block: Block, totalDifficulty: bigint, fullTxs: boolean) {
  const h = block.header;
  const powHash = h.parentChainHeader.length === 80 ? reverseBytes(parentHeaderHash(h.parentChainHeader)) : new Uint8Array(32);
  const uncleDifficulty = block.uncles.reduce((s, u) => s + u.difficulty, 0n);
  return {
    number: quantity(h.number),
    hash: hex(block.hash),
    parentHash: hex(h.parentHash),
    nonce: hex(powHash.subarray(0, 8)),
    // PREVRANDAO as the EVM saw it executing this block (src/chain/execution/blockRunner.ts): the parent's hash.
    mixHash: hex(h.parentHash),
    // No base fee, but Foundry sends EIP-1559 transactions only where blocks carry one (docs/rpc-compatibility.md "Gas price").
    baseFeePerGas: '0x0',
    sha3Uncles: hex(h.unclesHash),
    logsBloom: hex(h.logsBloom),
    transactionsRoot: hex(h.transactionsRoot),
    stateRoot: hex(h.stateRoot),
    receiptsRoot: hex(h.receiptsRoot),
    miner: hex(h.coinbase),
    difficulty: quantity(h.difficulty),
    totalDifficulty: quantity(totalDifficulty),
    cumulativeDifficulty: quantity(h.difficulty + uncleDifficulty),
    extraData: hex(h.extraData),
    size: quantity(encodeBlock(block).length),
    gasLimit: quantity(h.gasLimit),
    gasUsed: quantity(h.gasUsed),
    timestamp: quantity(h.timestamp),
    transactions: fullTxs
      ? block.txs.map((tx, index) => formatTx(tx, { blockHash: block.hash, blockNumber: h.number, index }))
      : block.txs.map((tx) => hex(tx.hash())),
    uncles: block.uncles.map((u) => bytesToHex(headerHashOf(u))),
    minimumGasPrice: quantity(h.minimumGasPrice),
    paidFees: quantity(h.paidFees),
    hashForMergedMining: hashForMergedMining(block),
    parentChainMergedMiningHeader: hex(h.parentChainHeader),
    parentChainMergedMiningCoinbaseTransaction: hex(h.parentChainCoinbase),
    parentChainMergedMiningMerkleProof: hex(h.parentChainMerkleProof),
  };
}

/**
 * The JSON text of stored blocks, with transaction hashes and with full transactions, kept while the
 * block itself is cached (the chain reader's block cache bounds how long), as logs keep theirs: a
 * stored block and its total difficulty never change, so `latest` read again is copied, not rebuilt.
 */
const blockTexts = new WeakMap<Block, { hashes?: JsonText; full?: JsonText }>();

export const blockText = (block: Block, fullTxs: boolean): JsonText | undefined => blockTexts.get(block)?.[fullTxs ? 'full' : 'hashes'];

/** Keeps formatBlock's result for `block` as JSON text and returns that text. */
export function rememberBlockText(block: Block, fullTxs: boolean, formatted: ReturnType<typeof formatBlock>): JsonText {
  const text = new JsonText(JSON.stringify(formatted));
  const texts = blockTexts.get(block) ?? {};
  texts[fullTxs ? 'full' : 'hashes'] = text;
  blockTexts.set(block, texts);
  return text;
}

/** An uncle seen through eth_getUncleBy*: a header-only block object, without `transactions` (docs/rpc-conformance.md, "Shapes"). */
export function formatUncle(uncle: Block['header'], totalDifficulty: bigint) {
  const block: Block = { header: uncle, hash: headerHashOf(uncle), txs: [], uncles: [] };
  const { transactions: _none, ...headerOnly } = formatBlock(block, totalDifficulty, false);
  return headerOnly;
}

/**
 * A log (docs/rpc-conformance.md "Shapes", "Pending logs"). `removed` is given only in filter results (polls, filter logs, subscriptions): true for a
 * log of a block that left the canonical chain. A pending log has no position: its block and
 * transaction fields are null.
 */
export function formatLog(log: LogEntry, removed?: boolean) {
  const mined = !log.pending;
  return {
    ...(removed === undefined ? {} : { removed }),
    logIndex: mined ? quantity(log.logIndex) : null,
    transactionIndex: mined ? quantity(log.txIndex) : null,
    transactionHash: mined ? log.txHash : null,
    blockHash: mined ? log.blockHash : null,
    blockNumber: mined ? quantity(log.blockNumber) : null,
    address: log.address,
    data: log.data,
    topics: log.topics,
  };
}

/** The JSON text of each log without `removed`, kept while its entry lives (the log caches bound how long: src/chain/logs/logQuery.ts, liveLogs.ts). */
const logTexts = new WeakMap<LogEntry, string>();

/** formatLog as JSON text; a log read again (cached blocks, recent heads) is not written again. */
export function logJson(log: LogEntry, removed?: boolean): string {
  if (removed) return JSON.stringify(formatLog(log, true));
  let text = logTexts.get(log);
  if (text === undefined) logTexts.set(log, (text = JSON.stringify(formatLog(log))));
  // A filter result's `removed: false` goes first, as formatLog places it.
  return removed === false ? `{"removed":false,${text.slice(1)}` : text;
}

export function formatReceipt(block: Block, receipts: readonly StoredReceipt[], index: number) {
  const r = receipts[index]!;
  const tx = block.txs[index]!;
  return {
    transactionHash: hex(tx.hash()),
    transactionIndex: quantity(index),
    blockHash: hex(block.hash),
    blockNumber: quantity(block.header.number),
    from: hex(tx.getSenderAddress().bytes),
    to: tx.to ? hex(tx.to.bytes) : null,
    cumulativeGasUsed: quantity(r.cumulativeGasUsed),
    gasUsed: quantity(r.gasUsed),
    effectiveGasPrice: quantity(effectiveGasPrice(tx)),
    contractAddress: r.contractAddress ? hex(r.contractAddress) : null,
    logs: txLogEntries(block, receipts, index).map((log) => formatLog(log)),
    logsBloom: hex(r.bloom),
    type: quantity(r.txType),
    status: quantity(r.status),
  };
}

export { ZERO32 };

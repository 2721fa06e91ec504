/**
 * The workloads: accounts and transactions shared by every peer, setup (funding, ERC-20 deploy),
 * reads at a fixed concurrency, writes of pre-signed transfers, and the in-process ceilings
 * (@ethereumjs/vm runTx / runCall with the node's own Common and trie settings).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { createLegacyTx, createTxFromRLP, type TypedTransaction } from '@ethereumjs/tx';
import { Account, createAddressFromString, MapDB, bytesToHex, hexToBytes, privateToAddress } from '@ethereumjs/util';
import { runTx } from '@ethereumjs/vm';
import secp256k1 from 'secp256k1';
import solc from 'solc';
import { createExecutionVM, executionBlock, stateManagerAt } from '../src/chain/execution/blockRunner.ts';
import { createChainCommon } from '../src/chain/execution/common.ts';
import { NETWORKS } from '../src/chain/execution/networks.ts';
import { post, rpc, rpcBatch, runLoad, type LoadResult } from './load.ts';
import { cpuWindow, type CpuShare } from './cpu.ts';

export type Hex = `0x${string}`;

// ---------------------------------------------------------------------------------------------
// Accounts and transactions
// ---------------------------------------------------------------------------------------------

/** Chain id 33 (mmnode regtest); Hardhat and Ganache are started with the same id. */
export const CHAIN_ID = Number(NETWORKS.regtest.chainId);
export const COMMON = createChainCommon(NETWORKS.regtest);
/** One price every peer accepts as-is: Ganache's default, above its base fee; mmnode and Hardhat (base fee 0) take any. */
export const GAS_PRICE = 2_000_000_000n;
export const SENDER_COUNT = 16;
export const TRANSFER_COUNT = 2_000;
export const GENESIS_BALANCE = 10n ** 30n;
const TOKENS_PER_HOLDER = 10n ** 24n;
const ERC20_GAS_LIMIT = 80_000n;

const seedKey = (seed: string) => keccak_256(new TextEncoder().encode(seed));

/** The ten mmnode regtest dev keys, then six more (funded from dev account 0 on mmnode). */
export const SENDER_KEYS: readonly Uint8Array[] = [
  ...NETWORKS.regtest.devAccounts.map((a) => a.privateKey),
  ...Array.from({ length: SENDER_COUNT - NETWORKS.regtest.devAccounts.length }, (_, i) => seedKey(`mmnode-bench-sender-${i}`)),
];
export const SENDERS: readonly Hex[] = SENDER_KEYS.map((k) => bytesToHex(privateToAddress(k)) as Hex);
/** Fixed recipients: the first transfers create them, the later ones update them, on every peer alike. */
export const RECIPIENTS: readonly Hex[] = Array.from({ length: 64 }, (_, i) => bytesToHex(seedKey(`mmnode-bench-recipient-${i}`).subarray(12)) as Hex);

const word = (v: bigint | string) => (typeof v === 'string' ? v.slice(2).toLowerCase() : v.toString(16)).padStart(64, '0');
export const balanceOfData = (who: Hex): Hex => `0x70a08231${word(who)}`;
export const transferData = (to: Hex, amount: bigint): Hex => `0xa9059cbb${word(to)}${word(amount)}`;

export interface TxFields { nonce: bigint; to?: Hex; value?: bigint; data?: Hex; gasLimit: bigint }

/** Signs a legacy (type 0, EIP-155) transaction with the native secp256k1 binding (fast enough to pre-sign thousands). */
export function signLegacy(key: Uint8Array, f: TxFields): Uint8Array {
  const tx = createLegacyTx({ nonce: f.nonce, gasPrice: GAS_PRICE, gasLimit: f.gasLimit, to: f.to, value: f.value ?? 0n, data: f.data }, { common: COMMON });
  const { signature, recid } = secp256k1.ecdsaSign(tx.getHashedMessageToSign(), key);
  return tx.addSignature(BigInt(recid), signature.subarray(0, 32), signature.subarray(32), true).serialize();
}

export interface SignedTx { readonly raw: Hex; readonly hash: Hex; readonly nonce: bigint }
export const signed = (raw: Uint8Array, nonce: bigint): SignedTx => ({ raw: bytesToHex(raw) as Hex, hash: bytesToHex(keccak_256(raw)) as Hex, nonce });

/**
 * `count` (TRANSFER_COUNT) transactions spread round-robin over the senders, grouped per sender in
 * nonce order (each sender's list is sent in order, so no peer ever sees a nonce gap).
 */
export function buildTransfers(kind: 'native' | 'erc20', nonces: readonly bigint[], token?: Hex, count = TRANSFER_COUNT): SignedTx[][] {
  const perSender: SignedTx[][] = SENDER_KEYS.map(() => []);
  for (let i = 0; i < count; i++) {
    const s = i % SENDER_COUNT;
    const nonce = nonces[s]! + BigInt(perSender[s]!.length);
    const to = RECIPIENTS[i % RECIPIENTS.length]!;
    const fields: TxFields = kind === 'native'
      ? { nonce, to, value: 1n, gasLimit: 21_000n }
      : { nonce, to: token!, data: transferData(to, 1n), gasLimit: ERC20_GAS_LIMIT };
    perSender[s]!.push(signed(signLegacy(SENDER_KEYS[s]!, fields), nonce));
  }
  return perSender;
}

// ---------------------------------------------------------------------------------------------
// The ERC-20 (compiled once with the root's solc, default settings as test/helpers/solc.ts does)
// ---------------------------------------------------------------------------------------------

let tokenBytecode: Hex | undefined;
function compileToken(): Hex {
  if (tokenBytecode) return tokenBytecode;
  const file = 'BenchToken.sol';
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: readFileSync(new URL(`./contracts/${file}`, import.meta.url), 'utf8') } },
    settings: { outputSelection: { '*': { '*': ['evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (out.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  return (tokenBytecode = `0x${out.contracts[file].BenchToken.evm.bytecode.object}`);
}

/** Creation code + abi.encode(address[] holders, uint256 amount). */
export function tokenDeployData(): Hex {
  const args = word(64n) + word(TOKENS_PER_HOLDER) + word(BigInt(SENDERS.length)) + SENDERS.map((a) => word(a)).join('');
  return `${compileToken()}${args}`;
}

// ---------------------------------------------------------------------------------------------
// Setup on a running peer (untimed)
// ---------------------------------------------------------------------------------------------

/** Receipts in order; throws on timeout, unless `partial`: then the missing ones stay null. */
export async function waitForReceipts(url: string, hashes: readonly Hex[], timeoutMs: number, partial = false): Promise<any[]> {
  const receipts: any[] = new Array(hashes.length).fill(null);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const missing = hashes.map((_, i) => i).filter((i) => receipts[i] === null);
    if (!missing.length) return receipts;
    if (Date.now() > deadline) {
      if (partial) return receipts;
      throw new Error(`${missing.length} of ${hashes.length} receipts still missing after ${timeoutMs / 1000} s`);
    }
    // mmnode answers batches of at most 50 requests.
    for (let i = 0; i < missing.length; i += 50) {
      const chunk = missing.slice(i, i + 50);
      const res = await rpcBatch(url, chunk.map((j) => ['eth_getTransactionReceipt', [hashes[j]]]));
      res.forEach((r, k) => { if (r && !(r instanceof Error)) receipts[chunk[k]!] = r; });
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Sends one transaction and asks for its receipt until there is one, back to back (what a test suite
 * waits for); resolves with the receipt. Throws on a refusal, or after `timeoutMs` without a receipt.
 */
export async function sendAndWait(url: string, raw: Hex, timeoutMs = 60_000): Promise<any> {
  const hash = await rpc<Hex>(url, 'eth_sendRawTransaction', [raw]);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const receipt = await rpc(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt;
    if (Date.now() > deadline) throw new Error(`no receipt for ${hash} after ${timeoutMs / 1000} s`);
  }
}

async function sendAll(url: string, txs: readonly SignedTx[]): Promise<void> {
  for (const tx of txs) await rpc(url, 'eth_sendRawTransaction', [tx.raw]);
}

const nonceOf = async (url: string, who: Hex) => BigInt(await rpc<string>(url, 'eth_getTransactionCount', [who, 'latest']));

export interface Prepared {
  readonly token: Hex;
  /** Next nonce per sender after setup. */
  readonly nonces: bigint[];
}

/** Funds senders that have nothing (the six extra keys on mmnode), deploys the ERC-20, reads nonces. */
export async function setupPeer(url: string): Promise<Prepared> {
  const funder = SENDER_KEYS[0]!;
  let nonce = await nonceOf(url, SENDERS[0]!);
  const funding: SignedTx[] = [];
  for (const who of SENDERS) {
    if (BigInt(await rpc<string>(url, 'eth_getBalance', [who, 'latest'])) === 0n) {
      funding.push(signed(signLegacy(funder, { nonce, to: who, value: 10n ** 27n, gasLimit: 21_000n }), nonce));
      nonce++;
    }
  }
  await sendAll(url, funding);
  await waitForReceipts(url, funding.map((t) => t.hash), 60_000);

  const deploy = signed(signLegacy(funder, { nonce, data: tokenDeployData(), gasLimit: 3_000_000n }), nonce);
  await sendAll(url, [deploy]);
  const [receipt] = await waitForReceipts(url, [deploy.hash], 60_000);
  if (receipt.status !== '0x1' || !receipt.contractAddress) throw new Error(`token deployment failed: ${JSON.stringify(receipt)}`);
  const token = receipt.contractAddress as Hex;
  const bal = await rpc<string>(url, 'eth_call', [{ to: token, data: balanceOfData(SENDERS[15]!) }, 'latest']);
  if (BigInt(bal) !== TOKENS_PER_HOLDER) throw new Error(`token balanceOf returned ${bal}`);
  const nonces = await Promise.all(SENDERS.map((s) => nonceOf(url, s)));
  return { token, nonces };
}

// ---------------------------------------------------------------------------------------------
// (a) Reads
// ---------------------------------------------------------------------------------------------

export interface ReadWorkload {
  readonly key: string;
  readonly label: string;
  /** Requests per body (a batch of 100 counts as one request). */
  readonly batch?: number;
  /** Shown but not part of the list. */
  readonly extra?: boolean;
  bodies(token: Hex): string[];
}

const req = (method: string, params: unknown[], id = 1) => ({ jsonrpc: '2.0', id, method, params });
const addressPool = [...SENDERS, ...RECIPIENTS];
const batchBodies = (n: number) =>
  Array.from({ length: 4 }, (_, b) => JSON.stringify(Array.from({ length: n }, (_, i) =>
    req('eth_getBalance', [addressPool[(b * 7 + i) % addressPool.length], 'latest'], i))));

export const READ_WORKLOADS: readonly ReadWorkload[] = [
  { key: 'blockNumber', label: 'eth_blockNumber', bodies: () => [JSON.stringify(req('eth_blockNumber', []))] },
  { key: 'getBalance', label: 'eth_getBalance', bodies: () => addressPool.map((a) => JSON.stringify(req('eth_getBalance', [a, 'latest']))) },
  {
    key: 'call', label: 'eth_call balanceOf',
    bodies: (token) => addressPool.map((a) => JSON.stringify(req('eth_call', [{ to: token, data: balanceOfData(a) }, 'latest']))),
  },
  { key: 'batch100', label: 'batch 100× eth_getBalance', batch: 100, bodies: () => batchBodies(100) },
  // The reference node's shipped config caps batches at 50: this row shows that size too.
  { key: 'batch50', label: 'batch 50× eth_getBalance', batch: 50, extra: true, bodies: () => batchBodies(50) },
];

function responseOk(text: string, batch: number | undefined): boolean {
  if (!batch) return text.includes('"result"') && !text.includes('"error"');
  try {
    const json = JSON.parse(text);
    return Array.isArray(json) && json.length === batch && json.every((r) => r.result !== undefined && !r.error);
  } catch {
    return false;
  }
}

export function runRead(url: string, w: ReadWorkload, token: Hex, seconds: number, concurrency: number): Promise<LoadResult> {
  const bodies = w.bodies(token);
  return runLoad(url, { concurrency, seconds, body: (i) => bodies[i % bodies.length]!, ok: (t) => responseOk(t, w.batch) });
}

// ---------------------------------------------------------------------------------------------
// (b) Writes
// ---------------------------------------------------------------------------------------------

export interface WriteResult {
  readonly accepted: number;
  readonly refused: number;
  /** Sends retried after a transient refusal (pool's per-sender window full). */
  readonly retries: number;
  readonly acceptSeconds: number;
  readonly acceptedPerSecond: number;
  /** From the first send until every transaction is mined (so every receipt exists). */
  readonly minedSeconds: number;
  readonly minedPerSecond: number;
  /** Fetching all receipts afterwards, in batches of 50 (untimed above; shown on its own). */
  readonly receiptSeconds: number;
  /** Receipts with status 0, and receipts that never appeared. */
  readonly failed: number;
  readonly missing: number;
  readonly blocks: number;
  readonly firstError?: string;
  /** CPU per transaction from the first send until every transaction is mined (when the peer's process id was given). */
  readonly cpu?: CpuShare;
}

// mmnode queues at most 64 nonces ahead of the account's; past that a sender waits for a block.
const TRANSIENT = /nonce too high|overloaded|mailbox/i;

/**
 * Sends every sender's list in nonce order (one worker per sender: concurrency 16), then polls
 * the senders' nonces until each passed its last accepted transaction: a block and its receipts
 * are imported together, so at that moment every receipt exists. (Polling the receipts
 * themselves would make the peer format them while the clock runs.) Then checks every receipt.
 */
export async function runWrites(url: string, perSender: readonly SignedTx[][], timeoutMs = 120_000, pid?: number): Promise<WriteResult> {
  const startBlock = Number(await rpc(url, 'eth_blockNumber'));
  const window = pid === undefined ? undefined : cpuWindow(pid);
  let refused = 0;
  let retries = 0;
  let firstError: string | undefined;
  const deadline = Date.now() + timeoutMs;
  const lastAccepted: (SignedTx | undefined)[] = perSender.map(() => undefined);
  const t0 = performance.now();
  await Promise.all(perSender.map(async (txs, s) => {
    for (const tx of txs) {
      for (;;) {
        const json = await post(url, JSON.stringify(req('eth_sendRawTransaction', [tx.raw])))
          .then((text) => JSON.parse(text), (err: Error) => ({ error: { message: `transport: ${err.message}` } }));
        if (!json.error) { lastAccepted[s] = tx; break; }
        if (TRANSIENT.test(json.error.message) && Date.now() < deadline) {
          retries++;
          await new Promise((r) => setTimeout(r, 10));
          continue;
        }
        refused++;
        firstError ??= json.error.message;
        break;
      }
    }
  }));
  const acceptSeconds = (performance.now() - t0) / 1000;
  const accepted = perSender.reduce((n, l) => n + l.length, 0) - refused;

  const waiting = SENDERS.map((who, s) => ({ who, final: lastAccepted[s] ? lastAccepted[s]!.nonce + 1n : 0n }));
  let minedSeconds = NaN; // stays NaN when not everything was mined in time
  while (Date.now() < deadline) {
    const nonces = await rpcBatch(url, waiting.map((w) => ['eth_getTransactionCount', [w.who, 'latest']])).catch(() => []);
    if (waiting.every((w, i) => typeof nonces[i] === 'string' && BigInt(nonces[i] as string) >= w.final)) {
      minedSeconds = (performance.now() - t0) / 1000;
      break;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  if (Number.isNaN(minedSeconds)) firstError ??= `not every transaction was mined within ${timeoutMs / 1000} s`;
  const cpu = window?.end(accepted);

  const all = perSender.flat().map((t) => t.hash);
  const t1 = performance.now();
  // Only what was mined is waited for; after a mining timeout, a short look suffices.
  const receipts = await waitForReceipts(url, all, Number.isNaN(minedSeconds) ? 5_000 : 60_000, true);
  const receiptSeconds = (performance.now() - t1) / 1000;
  const missing = receipts.filter((r) => r === null).length;
  const failed = receipts.filter((r) => r !== null && r.status !== '0x1').length;
  const blocks = Number(await rpc(url, 'eth_blockNumber')) - startBlock;
  return {
    accepted, refused, retries, acceptSeconds, acceptedPerSecond: accepted / acceptSeconds,
    minedSeconds, minedPerSecond: accepted / minedSeconds, receiptSeconds, failed, missing, blocks, firstError, cpu,
  };
}

// ---------------------------------------------------------------------------------------------
// (c) In-process ceilings: the node's Common (native ecrecover) and trie settings, an in-memory DB
// ---------------------------------------------------------------------------------------------

export interface Ceilings {
  readonly runTxNativePerSecond: number;
  readonly runTxErc20PerSecond: number;
  /** The same with the node's tuning: state caches and one checkpoint per block (see runTxRates). */
  readonly tunedNativePerSecond: number;
  readonly tunedErc20PerSecond: number;
  readonly runCallPerSecond: number;
  readonly tunedCallPerSecond: number;
}

/** A fresh in-memory chain state (the node's trie settings) with the senders funded and the token deployed. */
async function freshVm(caches = false) {
  const sm = stateManagerAt(new MapDB(), undefined, COMMON, { caches });
  const vm = await createExecutionVM({ common: COMMON, trieDb: new MapDB(), blockHash: async () => new Uint8Array(32) }, sm);
  for (const who of SENDERS) await sm.putAccount(createAddressFromString(who), new Account(0n, GENESIS_BALANCE));
  await sm.getStateRoot();
  const block = executionBlock({
    number: 1n, timestamp: BigInt(Math.floor(Date.now() / 1000)), coinbase: NETWORKS.regtest.defaultCoinbase,
    gasLimit: 1_000_000_000n, difficulty: 1n, prevRandao: new Uint8Array(32),
  }, COMMON);
  const deployTx = decode(signed(signLegacy(SENDER_KEYS[0]!, { nonce: 0n, data: tokenDeployData(), gasLimit: 3_000_000n }), 0n));
  const deployed = await runTx(vm, { tx: deployTx, block, skipHardForkValidation: true });
  const token = deployed.createdAddress!.toString() as Hex;
  return { vm, sm, block, token, nonces: SENDERS.map((_, i) => (i === 0 ? 1n : 0n)) };
}

const decode = (t: SignedTx) => createTxFromRLP(hexToBytes(t.raw), { common: COMMON });

/** Interleaved round-robin over the senders, the order a peer's blocks see them in. Decoded, sender not yet recovered. */
function roundRobin(perSender: SignedTx[][]): TypedTransaction[] {
  const out: TypedTransaction[] = [];
  for (let i = 0; i < perSender[0]!.length; i++) for (const l of perSender) if (l[i]) out.push(decode(l[i]!));
  return out;
}

/**
 * Native then ERC-20 transfers through runTx on a fresh state; each rate includes the final state root.
 * Plain: the library's default state manager, each transaction committed to the trie. Tuned: as the
 * node runs them, with state caches and one checkpoint around the block (as runBlock takes), so the
 * trie is written once per touched account, at the end.
 */
async function runTxRates(tuned: boolean): Promise<{ native: number; erc20: number }> {
  const { vm, sm, block, token, nonces } = await freshVm(tuned);
  const timed = async (txs: TypedTransaction[]) => {
    let gasUsed = 0n;
    const t0 = performance.now();
    if (tuned) await sm.checkpoint();
    for (const tx of txs) {
      // runTx recovers the sender here (native ecrecover); the node does that once, on submission.
      const r = await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true });
      if (r.execResult.exceptionError) throw new Error(`raw runTx failed: ${r.execResult.exceptionError.error}`);
      gasUsed += r.totalGasSpent;
    }
    if (tuned) await sm.commit();
    await sm.getStateRoot();
    return txs.length / ((performance.now() - t0) / 1000);
  };
  const native = buildTransfers('native', nonces);
  const nativeRate = await timed(roundRobin(native));
  const erc20 = buildTransfers('erc20', nonces.map((n, s) => n + BigInt(native[s]!.length)), token);
  return { native: nativeRate, erc20: await timed(roundRobin(erc20)) };
}

/**
 * Ceilings are best-of figures: the first runTx pass also warms the JIT (it reads ~30% lower),
 * and runCall reports its best one-second slice, so a burst of other work on the machine does
 * not lower the bar. Call it again later in the run and keep the max (see `bestOf`).
 */
export async function rawCeilings(callSeconds: number, runTxPasses = 2): Promise<Ceilings> {
  const best = { native: 0, erc20: 0, tunedNative: 0, tunedErc20: 0 };
  for (let i = 0; i < runTxPasses; i++) {
    const plain = await runTxRates(false);
    const tuned = await runTxRates(true);
    best.native = Math.max(best.native, plain.native);
    best.erc20 = Math.max(best.erc20, plain.erc20);
    best.tunedNative = Math.max(best.tunedNative, tuned.native);
    best.tunedErc20 = Math.max(best.tunedErc20, tuned.erc20);
  }

  return {
    runTxNativePerSecond: best.native, runTxErc20PerSecond: best.erc20,
    tunedNativePerSecond: best.tunedNative, tunedErc20PerSecond: best.tunedErc20,
    runCallPerSecond: await runCallRate(false, callSeconds), tunedCallPerSecond: await runCallRate(true, callSeconds),
  };
}

/** balanceOf calls per second (best one-second slice), on the default state manager or with state caches (as the node's call VMs). */
async function runCallRate(caches: boolean, seconds: number): Promise<number> {
  const { vm, block, token } = await freshVm(caches);
  const caller = createAddressFromString(SENDERS[0]!);
  const to = createAddressFromString(token);
  const datas = addressPool.map((a) => hexToBytes(balanceOfData(a)));
  const call = async (i: number) => {
    const r = await vm.evm.runCall({ caller, origin: caller, to, data: datas[i % datas.length], gasLimit: 10_000_000n, block });
    if (r.execResult.exceptionError) throw new Error(`raw runCall failed: ${r.execResult.exceptionError.error}`);
  };
  for (let i = 0; i < 1_000; i++) await call(i); // warm-up
  let best = 0;
  let calls = 0;
  for (let slice = 0; slice < Math.max(1, Math.round(seconds)); slice++) {
    const t0 = performance.now();
    let n = 0;
    while (performance.now() - t0 < 1_000 && n < 1_000_000) await call(calls + n++);
    calls += n;
    best = Math.max(best, n / ((performance.now() - t0) / 1000));
  }
  return best;
}

export const bestOf = (a: Ceilings, b: Ceilings): Ceilings =>
  Object.fromEntries(Object.entries(a).map(([k, v]) => [k, Math.max(v, b[k as keyof Ceilings])])) as unknown as Ceilings;

/**
 * Plain value transfers are applied to the state directly (src/chain/execution/plainTransfer.ts), and a
 * block of them ends as the library's runTx ends it: random blocks of transfers (legacy, EIP-2930 and
 * EIP-1559; to new, existing, empty, contract and precompile accounts, to the sender itself and to the
 * coinbase; with data or without, a wrong nonce, too little balance or gas, a zero price) give the same
 * transactions included and left out (with the library's reasons), receipts, fees and state root through
 * executeBlock as through the library's VM.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ethers } from 'ethers';
import { MerkleStateManager } from '@ethereumjs/statemanager';
import type { TypedTransaction } from '@ethereumjs/tx';
import { Account, Address, bytesToHex, hexToBytes, KECCAK256_RLP, MapDB } from '@ethereumjs/util';
import { createVM, runTx } from '@ethereumjs/vm';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { decodeTx, executeBlock, executionBlock, type BlockExecutionContext, type StateEdit } from '../../../src/chain/execution/blockRunner.ts';
import { applyPlainTransfer } from '../../../src/chain/execution/plainTransfer.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import { effectiveGasPrice } from '../../../src/chain/execution/txPrice.ts';
import { random } from '../../helpers/random.ts';

const Transfers = suite('plain value transfers');

const common = createChainCommon(NETWORKS.regtest);
const GWEI = 1_000_000_000n;
const wallets = [1, 2, 3, 4].map((i) => new ethers.Wallet(ethers.keccak256(ethers.toUtf8Bytes(`plain transfer sender ${i}`))));
const bytesOf = (hex: string) => hexToBytes(hex as `0x${string}`);
const CONTRACT = '0x00000000000000000000000000000000000c0de1';
const EMPTY = '0x00000000000000000000000000000000000e3971';
const COINBASE = '0x1111111111111111111111111111111111111111';
/** The senders' balances: plenty, enough for a few transfers of 1 ether, none. */
const BALANCES = [10n ** 21n, 10n ** 21n, 3n * 10n ** 18n, 0n];

const EDITS: StateEdit[] = [
  ...wallets.map((w, i) => ({ address: bytesOf(w.address), balance: BALANCES[i]! })),
  // LOG0 of nothing, then STOP: a recipient with code runs it.
  { address: bytesOf(CONTRACT), code: bytesOf('0x60006000a000') },
  { address: bytesOf(EMPTY), balance: 0n },
];

const context = (coinbase: string): BlockExecutionContext => ({
  number: 1n, timestamp: 1_700_000_000n, coinbase: bytesOf(coinbase), gasLimit: 30_000_000n,
  difficulty: 1n, prevRandao: new Uint8Array(32), minimumGasPrice: 0n, stateEdits: EDITS,
});

async function sign(wallet: ethers.Wallet, body: ethers.TransactionRequest): Promise<TypedTransaction> {
  return decodeTx(bytesOf(await wallet.signTransaction({ chainId: 33, ...body })), common);
}

/** A VM over a state holding the edits. */
async function libraryVM() {
  const sm = new MerkleStateManager({ common });
  const vm = await createVM({ common: common.copy(), stateManager: sm });
  for (const edit of EDITS) {
    await sm.putAccount(new Address(edit.address), new Account(0n, edit.balance ?? 0n));
    if (edit.code) await sm.putCode(new Address(edit.address), edit.code);
  }
  return { vm, sm };
}

interface Outcome { included: string[]; rejected: string[]; receipts: string[]; paidFees: bigint; stateRoot: string }

/**
 * A block's worth of random transfers, most of them plain and valid, each run by the library's runTx as it
 * is made (a sender's next nonce is the one after its last included transaction), and left out as the
 * block runner leaves out what fails.
 */
async function libraryBlock(seed: number, count: number, ctx: BlockExecutionContext): Promise<{ txs: TypedTransaction[]; outcome: Outcome }> {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[next(items.length)]!;
  const coinbase = bytesToHex(ctx.coinbase);
  const { vm, sm } = await libraryVM();
  const block = executionBlock(ctx, common);
  const nonces = wallets.map(() => 0);
  const txs: TypedTransaction[] = [];
  const outcome: Outcome = { included: [], rejected: [], receipts: [], paidFees: 0n, stateRoot: '' };
  let gasUsed = 0n;
  while (txs.length < count) {
    const from = pick([0, 0, 1, 1, 2, 3]);
    const wallet = wallets[from]!;
    const to = pick([
      ethers.hexlify(ethers.randomBytes(20)), ethers.hexlify(ethers.randomBytes(20)), wallets[(from + 1) % wallets.length]!.address,
      wallets[(from + 2) % wallets.length]!.address, wallet.address, coinbase, CONTRACT, EMPTY,
      '0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000004',
    ]);
    const gasPrice = pick([GWEI, GWEI, 2n * GWEI, 0n]);
    const body: ethers.TransactionRequest = {
      to, nonce: Math.max(0, nonces[from]! + pick([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, -1])), value: pick([1n, 12_345n, 10n ** 18n, 1n, 0n, 10n ** 22n]),
      gasLimit: pick([21_000n, 21_000n, 21_000n, 21_000n, 30_000n, 100_000n, 20_999n]), data: pick(['0x', '0x', '0x', '0x', '0x', '0x', '0x00', '0x1234']),
    };
    const type = pick([0, 0, 0, 1, 2, 2]);
    if (type === 2) Object.assign(body, { type, maxFeePerGas: gasPrice * 2n, maxPriorityFeePerGas: gasPrice });
    else Object.assign(body, { type, gasPrice, ...(type === 1 ? { accessList: pick([[], [{ address: to, storageKeys: [ethers.ZeroHash] }]]) } : {}) });
    let tx: TypedTransaction;
    try {
      tx = await sign(wallet, body);
    } catch {
      continue; // a transaction the chain would not decode (gas below its intrinsic cost) is not sent
    }
    txs.push(tx);
    try {
      const r = await runTx(vm, { tx, block, blockGasUsed: gasUsed, skipHardForkValidation: true });
      gasUsed += r.totalGasSpent;
      outcome.paidFees += r.totalGasSpent * effectiveGasPrice(tx);
      const receipt = r.receipt as { status: number; bitvector: Uint8Array };
      outcome.included.push(bytesToHex(tx.hash()));
      outcome.receipts.push(`${receipt.status} ${r.totalGasSpent} ${gasUsed} ${bytesToHex(receipt.bitvector)}`);
      nonces[from] = Number(tx.nonce) + 1;
    } catch (err) {
      outcome.rejected.push(`${bytesToHex(tx.hash())} ${(err as Error).message}`);
    }
  }
  outcome.stateRoot = bytesToHex(await sm.getStateRoot());
  return { txs, outcome };
}

async function withBlockRunner(ctx: BlockExecutionContext, txs: readonly TypedTransaction[]): Promise<Outcome> {
  const result = await executeBlock({ common, trieDb: new MapDB(), blockHash: async () => new Uint8Array(32) }, KECCAK256_RLP, ctx, txs, 'build');
  return {
    included: result.txs.map((tx) => bytesToHex(tx.hash())),
    rejected: result.rejected.map(({ tx, reason }) => `${bytesToHex(tx.hash())} ${reason}`),
    receipts: result.receipts.map((r) => `${r.status} ${r.gasUsed} ${r.cumulativeGasUsed} ${bytesToHex(r.bloom)}`),
    paidFees: result.paidFees,
    stateRoot: bytesToHex(result.stateRoot),
  };
}

for (const [i, [name, coinbase]] of ([['a coinbase of its own', COINBASE], ['a sender as coinbase', wallets[1]!.address], ['a new coinbase', '0x2222222222222222222222222222222222222222']] as const).entries()) {
  Transfers(`random blocks of transfers end as the library ends them, with ${name}`, async () => {
    for (const seed of [1, 2, 3]) {
      const ctx = context(coinbase);
      const { txs, outcome: library } = await libraryBlock(seed * 7919 + i, 100, ctx);
      assert.equal(await withBlockRunner(ctx, txs), library, `seed ${seed}`);
      const plain = library.receipts.filter((r) => r.startsWith('1 21000 ')).length;
      assert.ok(plain >= 12, `seed ${seed}: ${plain} successful transfers of 21,000 gas among ${library.included.length} included`);
      assert.ok(library.rejected.length >= 3, `seed ${seed}: ${library.rejected.length} left out`);
    }
  });
}

Transfers('a plain transfer moves the value and the fee and bumps the nonce; anything else is left to the library', async () => {
  const { vm, sm } = await libraryVM();
  const coinbase = new Address(bytesOf(COINBASE));
  const wallet = wallets[0]!;
  const recipient = ethers.hexlify(ethers.randomBytes(20));
  const transfer = (body: ethers.TransactionRequest, from = wallet) => sign(from, { nonce: 0, gasLimit: 21_000n, gasPrice: GWEI, value: 5n, to: recipient, ...body });
  const balance = async (a: string) => (await sm.getAccount(new Address(bytesOf(a))))?.balance;
  const declined = async (what: string, body: ethers.TransactionRequest, from = wallet) => {
    const root = bytesToHex(await sm.getStateRoot());
    assert.is(await applyPlainTransfer(vm, sm, await transfer(body, from), coinbase), undefined, what);
    assert.is(bytesToHex(await sm.getStateRoot()), root, `${what}: the state is unchanged`);
  };
  await declined('data', { data: '0x00' });
  await declined('a contract recipient', { to: CONTRACT });
  await declined('a precompile', { to: '0x0000000000000000000000000000000000000002' });
  await declined('to itself', { to: wallet.address });
  await declined('to the coinbase', { to: COINBASE });
  await declined('nothing to an empty account', { to: EMPTY, value: 0n });
  await declined('a wrong nonce', { nonce: 1 });
  await declined('more than the balance', { value: 10n ** 21n });
  await declined('a zero fee to an empty coinbase', { gasPrice: 0n });
  await declined('from an account without funds', {}, wallets[3]);

  assert.is(await applyPlainTransfer(vm, sm, await transfer({ gasLimit: 50_000n }), coinbase), 21_000n);
  assert.is(await balance(recipient), 5n);
  assert.is(await balance(COINBASE), 21_000n * GWEI);
  assert.is(await balance(wallet.address), 10n ** 21n - 5n - 21_000n * GWEI);
  assert.is((await sm.getAccount(new Address(bytesOf(wallet.address))))!.nonce, 1n);
  assert.is(await applyPlainTransfer(vm, sm, await transfer({ nonce: 1, to: EMPTY, value: 7n }), coinbase), 21_000n, 'value to an empty account');
  assert.is(await balance(EMPTY), 7n);
});

Transfers.run();

/**
 * A transaction the block builder leaves out leaves the state as it found it (docs/chain.md "Transactions
 * that throw"), also one the library's EVM gives up on midway: a call of the point-evaluation precompile,
 * which throws for want of a KZG setup after the sender was charged.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ethers } from 'ethers';
import { bytesToHex, hexToBytes, KECCAK256_RLP, MapDB } from '@ethereumjs/util';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { decodeTx, executeBlock, type BlockExecutionContext } from '../../../src/chain/execution/blockRunner.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';

const LeftOut = suite('transactions left out of a built block');

const common = createChainCommon(NETWORKS.regtest);
const wallet = new ethers.Wallet(ethers.keccak256(ethers.toUtf8Bytes('left out')));
const CTX: BlockExecutionContext = {
  number: 1n, timestamp: 1_700_000_000n, coinbase: hexToBytes('0x1111111111111111111111111111111111111111'), gasLimit: 30_000_000n,
  difficulty: 1n, prevRandao: new Uint8Array(32), minimumGasPrice: 0n,
  stateEdits: [{ address: hexToBytes(wallet.address as `0x${string}`), balance: 10n ** 21n }],
};
const env = () => ({ common, trieDb: new MapDB<string, string | Uint8Array>(), blockHash: async () => new Uint8Array(32) });

const sign = async (body: ethers.TransactionRequest) =>
  decodeTx(hexToBytes((await wallet.signTransaction({ chainId: 33, gasPrice: 1_000_000_000n, gasLimit: 21_000n, ...body })) as `0x${string}`), common);

LeftOut('a call the EVM gives up on midway is left out, and the block is the one its other transactions make', async () => {
  const first = await sign({ nonce: 0, to: '0x2222222222222222222222222222222222222222', value: 5n });
  // A direct call of the precompile and one through a contract would both throw; the direct one with value moves the most.
  const thrower = await sign({ nonce: 1, to: '0x000000000000000000000000000000000000000a', value: 10n ** 18n, gasLimit: 200_000n, data: '0x' + '00'.repeat(192) });
  const last = await sign({ nonce: 1, to: '0x3333333333333333333333333333333333333333', value: 7n });

  const built = await executeBlock(env(), KECCAK256_RLP, CTX, [first, thrower, last], 'build');
  assert.equal(built.rejected.map((r) => r.reason), ['kzg not initialized']);
  assert.equal(built.txs.map((tx) => bytesToHex(tx.hash())), [first, last].map((tx) => bytesToHex(tx.hash())));

  const verified = await executeBlock(env(), KECCAK256_RLP, CTX, [first, last], 'verify');
  assert.is(bytesToHex(built.stateRoot), bytesToHex(verified.stateRoot), 'a peer running the block gets its state root');
  assert.is(built.paidFees, verified.paidFees);
  const sender = built.accounts.get(wallet.address.toLowerCase());
  assert.is(sender?.nonce, 2n);
  assert.is(sender?.balance, 10n ** 21n - 12n - 42_000n * 1_000_000_000n, 'the sender paid for the two transactions only');
});

LeftOut('in a block from a peer, such a transaction makes the block invalid', async () => {
  const thrower = await sign({ nonce: 0, to: '0x000000000000000000000000000000000000000a', gasLimit: 200_000n, data: '0x' + '00'.repeat(192) });
  try {
    await executeBlock(env(), KECCAK256_RLP, CTX, [thrower], 'verify');
    assert.unreachable('the block was accepted');
  } catch (err) {
    assert.match((err as Error).message, /transaction 0: kzg not initialized/);
  }
});

LeftOut.run();

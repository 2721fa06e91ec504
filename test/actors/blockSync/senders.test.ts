/**
 * Sender recovery on a worker thread (src/actors/blockSync/senders.ts): each transaction gets the
 * sender and hash the main thread would compute; one whose signature does not recover is left for
 * execution to refuse.
 */
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SenderRecovery } from '../../../src/actors/blockSync/senders.ts';
import { markerSignature } from '../../../src/chain/codec/impersonation.ts';
import { txBytes, txFromBytes } from '../../../src/chain/codec/txEncoding.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';

const Senders = suite('sender recovery off the main thread');
const common = createChainCommon(NETWORKS.regtest);
/** secp256k1's group order: s and n − s are both valid signatures of a message, only the low one is accepted (EIP-2). */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

const signed = (i: number) => createLegacyTx(
  { nonce: BigInt(i), to: DEV_ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n }, { common },
).sign(DEV_ACCOUNTS[i % 3]!.privateKey);
/** As a peer's block carries them: decoded from bytes, nothing recovered yet. */
const received = (tx: TypedTransaction) => txFromBytes(txBytes(tx), common);
const cacheOf = (tx: TypedTransaction) => (tx as unknown as { cache: { senderPubKey?: Uint8Array; hash?: Uint8Array } }).cache;

Senders('each transaction gets the sender and hash the main thread recovers; a high-s signature is left to execution', async () => {
  const good = Array.from({ length: 5 }, (_, i) => signed(i));
  const t = signed(9);
  const highS = createLegacyTx({ ...t.toJSON(), v: t.v! % 2n === 0n ? t.v! - 1n : t.v! + 1n, s: N - t.s! }, { common });
  const txs = [...good, highS].map(received);
  const blocks = [{ txs: txs.slice(0, 3) }, { txs: txs.slice(3) }];
  const recovery = new SenderRecovery(NETWORKS.regtest);
  try {
    assert.ok(await recovery.ready, 'the worker serves');
    await recovery.prime(blocks);
  } finally {
    await recovery.close();
  }
  good.forEach((tx, i) => {
    assert.is(bytesToHex(cacheOf(txs[i]!).senderPubKey!), bytesToHex(tx.getSenderPublicKey()));
    assert.is(bytesToHex(cacheOf(txs[i]!).hash!), bytesToHex(tx.hash()));
    assert.is(txs[i]!.getSenderAddress().toString(), tx.getSenderAddress().toString());
  });
  assert.is(cacheOf(txs[5]!).senderPubKey, undefined);
  assert.throws(() => txs[5]!.getSenderAddress(), /s-values greater than secp256k1n\/2/);
});

Senders('an impersonated transaction (regtest) keeps the sender its marker names', async () => {
  const sender = DEV_ACCOUNTS[5]!.address;
  const marked = createLegacyTx({
    nonce: 0n, to: DEV_ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n,
    v: common.chainId() * 2n + 35n, ...markerSignature(sender),
  }, { common });
  const tx = received(marked);
  const recovery = new SenderRecovery(NETWORKS.regtest);
  try {
    assert.ok(await recovery.ready);
    await recovery.prime([{ txs: [tx] }]);
  } finally {
    await recovery.close();
  }
  assert.is(cacheOf(tx).senderPubKey, undefined);
  assert.is(tx.getSenderAddress().toString(), bytesToHex(sender));
});

Senders('a closed recovery primes nothing and never blocks', async () => {
  const recovery = new SenderRecovery(NETWORKS.regtest);
  await recovery.close();
  const tx = received(signed(0));
  await recovery.prime([{ txs: [tx] }]);
  assert.is(cacheOf(tx).senderPubKey, undefined);
});

Senders.run();

/** A transaction decoded from its bytes keeps them, and its sender's address once hashed. */
import { createLegacyTx, createTxFromRLP } from '@ethereumjs/tx';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { txBytes, txFromBytes } from '../../../src/chain/codec/txEncoding.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';

const common = createChainCommon(NETWORKS.regtest);
const signed = () => createLegacyTx({ nonce: 7n, gasPrice: 1n, gasLimit: 21_000n, to: DEV_ACCOUNTS[1]!.address, value: 5n }, { common })
  .sign(DEV_ACCOUNTS[0]!.privateKey).serialize();

const Decoding = suite('txFromBytes');

Decoding('the sender is the library\'s, the same address object at every call; the transaction is frozen and keeps its bytes', () => {
  const raw = signed();
  const tx = txFromBytes(raw, common);
  const first = tx.getSenderAddress();
  assert.is(first.toString(), createTxFromRLP(raw, { common }).getSenderAddress().toString());
  assert.equal(first.bytes, DEV_ACCOUNTS[0]!.address);
  assert.is(tx.getSenderAddress(), first);
  assert.ok(Object.isFrozen(tx));
  assert.equal(txBytes(tx), raw);
});

Decoding('a signature that recovers no key throws at every call, as the library does', () => {
  const fields = { nonce: 1n, gasPrice: 1n, gasLimit: 21_000n, value: 1n, v: common.chainId() * 2n + 35n, r: 5n, s: 7n };
  const raw = createLegacyTx(fields, { common }).serialize();
  const tx = txFromBytes(raw, common);
  const library = createTxFromRLP(raw, { common });
  assert.throws(() => library.getSenderAddress());
  assert.throws(() => tx.getSenderAddress());
  assert.throws(() => tx.getSenderAddress());
});

Decoding.run();

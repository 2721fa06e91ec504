/** A transaction decoded from its bytes keeps them, its sender's address once hashed, and their hash as its hash. */
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx, createTxFromRLP } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { markerSignature } from '../../../src/chain/codec/impersonation.ts';
import { txBytes, txFromBytes } from '../../../src/chain/codec/txEncoding.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';

const common = createChainCommon(NETWORKS.regtest);
const KEY = DEV_ACCOUNTS[0]!.privateKey;
const TO = DEV_ACCOUNTS[1]!.address;
const signed = () => createLegacyTx({ nonce: 7n, gasPrice: 1n, gasLimit: 21_000n, to: TO, value: 5n }, { common }).sign(KEY).serialize();

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

Decoding('each type\'s hash from its bytes is the hash of its re-encoding', () => {
  const raws = [
    signed(),
    createAccessList2930Tx({ nonce: 2n, gasPrice: 7n, gasLimit: 30_000n, to: TO, accessList: [{ address: bytesToHex(TO), storageKeys: [] }] }, { common }).sign(KEY).serialize(),
    createFeeMarket1559Tx({ nonce: 3n, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n, gasLimit: 21_000n, to: TO, data: Uint8Array.of(1, 2) }, { common }).sign(KEY).serialize(),
    // The impersonation marker (regtest): its sender is read another way, its hash the same.
    createLegacyTx({ nonce: 4n, gasPrice: 1n, gasLimit: 21_000n, to: TO, v: common.chainId() * 2n + 35n, ...markerSignature(TO) }, { common }).serialize(),
  ];
  for (const raw of raws) {
    const tx = txFromBytes(raw, common);
    const again = createTxFromRLP(raw, { common, freeze: false }); // unfrozen: hash() encodes it anew each time
    assert.is(bytesToHex(tx.hash()), bytesToHex(again.hash()), `type ${tx.type}`);
    assert.equal(txBytes(tx), raw);
  }
});

Decoding('the data fee and the intrinsic gas are the library\'s, for calls and creations of each type', () => {
  let seed = 7;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 60; i++) {
    // Data of 0 to 5,000 bytes, about a third of them zero.
    const data = Uint8Array.from({ length: Math.floor(random() ** 2 * 5_000) }, () => (random() < 0.35 ? 0 : 1 + Math.floor(random() * 255)));
    const to = random() < 0.5 ? TO : undefined;
    const fields = { nonce: BigInt(i), gasLimit: 10_000_000n, to, data };
    const accessList = [{ address: bytesToHex(TO), storageKeys: [bytesToHex(new Uint8Array(32))] }];
    const raw = [
      () => createLegacyTx({ ...fields, gasPrice: 1n }, { common }),
      () => createAccessList2930Tx({ ...fields, gasPrice: 1n, accessList }, { common }),
      () => createFeeMarket1559Tx({ ...fields, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n, accessList }, { common }),
    ][i % 3]!().sign(KEY).serialize();
    const tx = txFromBytes(raw, common);
    const library = createTxFromRLP(raw, { common });
    assert.is(tx.getDataGas(), library.getDataGas(), `data fee, transaction ${i}`);
    assert.is(tx.getIntrinsicGas(), library.getIntrinsicGas(), `intrinsic gas, transaction ${i}`);
  }
});

Decoding.run();

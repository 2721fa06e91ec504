/** A transaction decoded from bytes keeps them as its encoding, and its hash is theirs: the same hash the library computes by encoding it again. */
import { createFeeMarket1559Tx, createAccessList2930Tx, createLegacyTx, createTxFromRLP } from '@ethereumjs/tx';
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
const Encoding = suite('transaction encoding');

Encoding('each type\'s hash from its bytes is the hash of its re-encoding', () => {
  const raws = [
    createLegacyTx({ nonce: 1n, gasPrice: 7n, gasLimit: 21_000n, to: TO, value: 5n }, { common }).sign(KEY).serialize(),
    createAccessList2930Tx({ nonce: 2n, gasPrice: 7n, gasLimit: 30_000n, to: TO, accessList: [{ address: bytesToHex(TO), storageKeys: [] }] }, { common }).sign(KEY).serialize(),
    createFeeMarket1559Tx({ nonce: 3n, maxFeePerGas: 9n, maxPriorityFeePerGas: 1n, gasLimit: 21_000n, to: TO, data: Uint8Array.of(1, 2) }, { common }).sign(KEY).serialize(),
    // The impersonation marker (regtest): decoded another way, hashed the same.
    createLegacyTx({ nonce: 4n, gasPrice: 1n, gasLimit: 21_000n, to: TO, v: common.chainId() * 2n + 35n, ...markerSignature(TO) }, { common }).serialize(),
  ];
  for (const raw of raws) {
    const tx = txFromBytes(raw, common);
    const again = createTxFromRLP(raw, { common, freeze: false }); // unfrozen: hash() encodes it anew each time
    assert.is(bytesToHex(tx.hash()), bytesToHex(again.hash()), `type ${tx.type}`);
    assert.equal(txBytes(tx), raw);
  }
});

Encoding.run();

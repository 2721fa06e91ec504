/** The impersonation marker (s = 1, r = the sender): a regtest Common reads the sender from it; others do not. */
import { createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { fromHex } from '../../../src/chain/codec/bytes.ts';
import { impersonatedSender, markerSignature } from '../../../src/chain/codec/impersonation.ts';
import { txBytes, txFromBytes } from '../../../src/chain/codec/txEncoding.ts';
import { decodeTx, TxDecodeError } from '../../../src/chain/execution/blockRunner.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';

const SENDER = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a';
const regtest = createChainCommon(NETWORKS.regtest);
const testnet = createChainCommon(NETWORKS.testnet);
const marked = (common: typeof regtest) => createLegacyTx(
  { nonce: 3n, gasPrice: 1n, gasLimit: 21_000n, value: 1n, v: common.chainId() * 2n + 35n, ...markerSignature(fromHex(SENDER)) }, { common },
).serialize();

const Marker = suite('impersonation marker');

Marker('on regtest the decoded transaction is sent by the address the marker names, and keeps its bytes', () => {
  const raw = marked(regtest);
  const tx = txFromBytes(raw, regtest);
  assert.is(tx.getSenderAddress().toString(), SENDER);
  assert.is(bytesToHex(impersonatedSender(tx)!), SENDER);
  assert.equal(txBytes(tx), raw);
  assert.ok(Object.isFrozen(tx));
});

Marker('on testnet the marker means nothing: the signature recovers some other account, or none', () => {
  const tx = txFromBytes(marked(testnet), testnet);
  let sender: string | undefined;
  try { sender = tx.getSenderAddress().toString(); } catch { /* r is not a point on the curve */ }
  assert.is.not(sender, SENDER);
});

Marker('a transaction signed with a key carries no marker', () => {
  const signed = createLegacyTx({ gasLimit: 21_000n }, { common: regtest }).sign(NETWORKS.regtest.devAccounts[0]!.privateKey);
  assert.is(impersonatedSender(txFromBytes(signed.serialize(), regtest)), undefined);
});

Marker('decodeTx (eth_sendRawTransaction, gossip) refuses the marker on every network', () => {
  for (const common of [regtest, testnet]) {
    try {
      decodeTx(marked(common), common);
      assert.unreachable('decoded');
    } catch (err) {
      assert.instance(err, TxDecodeError);
      assert.is((err as TxDecodeError).kind, 'rejected');
    }
  }
});

Marker.run();

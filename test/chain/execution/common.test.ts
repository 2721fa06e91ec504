/** The chain's Common signs on the secp256k1 add-on: the same transactions as @ethereumjs/tx's own signer. */
import { createCustomCommon, Hardfork, Mainnet } from '@ethereumjs/common';
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { randomBytes } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';

const Signing = suite('signing with the chain Common');
const ours = createChainCommon(NETWORKS.regtest);
/** The library's defaults: JavaScript signing. */
const library = createCustomCommon({ chainId: Number(NETWORKS.regtest.chainId) }, Mainnet, { hardfork: Hardfork.Cancun });
const fields = { nonce: 7n, gasLimit: 90_000n, to: `0x${'44'.repeat(20)}`, value: 5n, data: '0xa9059cbb' } as const;

Signing('deterministic signatures are the library\'s, byte for byte; hedged ones differ each time and recover to the signer', () => {
  for (let i = 0; i < 20; i++) {
    const key = randomBytes(32);
    const signer = bytesToHex(privateToAddress(key));
    const builds = [
      (common: typeof ours) => createLegacyTx({ ...fields, gasPrice: 10n ** 9n }, { common }),
      (common: typeof ours) => createFeeMarket1559Tx({ ...fields, maxFeePerGas: 10n ** 9n, maxPriorityFeePerGas: 1n }, { common }),
    ];
    for (const build of builds) {
      const expected = build(library).sign(key);
      const signed = build(ours).sign(key);
      assert.is(bytesToHex(signed.serialize()), bytesToHex(expected.serialize()));
      const [a, b] = [build(ours).sign(key, true), build(ours).sign(key, true)];
      assert.is.not(a.r, b.r, 'fresh entropy for each hedged signature');
      for (const tx of [a, b]) {
        assert.ok(tx.verifySignature());
        assert.is(tx.getSenderAddress().toString(), signer);
      }
    }
  }
});

Signing.run();

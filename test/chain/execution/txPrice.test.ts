/** What a transaction pays per gas without a base fee: its gas price, or an EIP-1559 transaction's tip. */
import { createAccessList2930Tx, createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import { NETWORKS } from '../../../src/chain/execution/networks.ts';
import { effectiveGasPrice, maxGasPrice } from '../../../src/chain/execution/txPrice.ts';

const common = createChainCommon(NETWORKS.regtest);
const Price = suite('transaction price');

Price('legacy and EIP-2930 transactions pay their gas price', () => {
  for (const tx of [createLegacyTx({ gasPrice: 7n }, { common }), createAccessList2930Tx({ gasPrice: 7n }, { common })]) {
    assert.is(effectiveGasPrice(tx), 7n);
    assert.is(maxGasPrice(tx), 7n);
  }
});

Price('an EIP-1559 transaction pays its tip; the balance must cover its fee cap', () => {
  const tx = createFeeMarket1559Tx({ maxFeePerGas: 10n, maxPriorityFeePerGas: 3n }, { common });
  assert.is(effectiveGasPrice(tx), 3n);
  assert.is(maxGasPrice(tx), 10n);
});

Price.run();

/** eth_sign and eth_sendTransaction on a real node: signatures ethers recovers, and the defaults a node-built transaction gets. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ethers } from 'ethers';
import { DATA, devA, devB, devD, hexQ, MINER, storeChain } from '../../../helpers/storeChain.ts';

const { call, sendAndMine, stop } = storeChain();
const Wallet = suite('eth_* wallet');
Wallet.after(stop);

Wallet('eth_sign signs the prefixed message; ethers.verifyMessage recovers the account', async () => {
  for (const [who, message] of [[devA, '0xdeadbeef'], [devB, '0x68656c6c6f'], [MINER, '0x'], [devA, `0x${'07'.repeat(300)}`]] as const) {
    const sig = await call<string>('eth_sign', [who, message]);
    assert.match(sig, DATA(65));
    assert.ok(['1b', '1c'].includes(sig.slice(-2)), `v byte ${sig.slice(-2)}`);
    assert.is(ethers.verifyMessage(ethers.getBytes(message), sig).toLowerCase(), who);
  }
});

Wallet('eth_sendTransaction fills defaults (gas 90000, gas price 0, next nonce) and is mined', async () => {
  const to = '0x2222222222222222222222222222222222222222';
  const before = BigInt(await call('eth_getTransactionCount', [devD, 'latest']));
  const receipt = await sendAndMine({ from: devD, to, value: '0x3e8' });
  assert.is(receipt.status, '0x1');
  assert.is(receipt.from, devD);
  assert.is(receipt.to, to);
  assert.is(receipt.gasUsed, hexQ(21_000));
  const tx = await call('eth_getTransactionByHash', [receipt.transactionHash]);
  assert.is(tx.gas, hexQ(90_000));
  assert.is(tx.gasPrice, '0x0');
  assert.is(tx.nonce, hexQ(before));
  assert.is(tx.value, '0x3e8');
  assert.is(tx.chainId, '0x21');
  assert.is(tx.blockHash, receipt.blockHash);
  assert.is(await call('eth_getBalance', [to, 'latest']), '0x3e8');
  assert.is(await call('eth_getTransactionCount', [devD, 'latest']), hexQ(before + 1n));
});

Wallet.run();

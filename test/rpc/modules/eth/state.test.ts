/** State at a block on a real node: eth_getProof checked against the state root, and every block selector form reading code, storage, nonce and balance. */
import { verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft } from '@ethereumjs/util';
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { devA, devB, hexQ, storeChain, word, ZERO32 } from '../../../helpers/storeChain.ts';

const { call, block, storeFixture, stop } = storeChain();
const State = suite('eth_* state');
State.after(stop);

async function verifyAccountProof(address: string, blockNumber: string) {
  const header = await block(blockNumber);
  const proof = await call('eth_getProof', [address, ['0x0'], blockNumber]);
  assert.is(proof.address.toLowerCase(), address.toLowerCase());
  const nodes = proof.accountProof.map((n: string) => hexToBytes(n as `0x${string}`));
  assert.is(ethers.keccak256(proof.accountProof[0]), header.stateRoot, 'the first proof node is the state root node');
  const value = await verifyMerkleProof(hexToBytes(address as `0x${string}`), nodes, { root: hexToBytes(header.stateRoot), useKeyHashing: true });
  return { proof, header, value };
}

State('eth_getProof: the account proof verifies against the block state root', async () => {
  const { store, set } = await storeFixture();
  const number = set.number;
  const { proof, value } = await verifyAccountProof(store, number);
  assert.ok(value, 'the contract account exists in the proven trie');
  const [nonce, balance, storageRoot, codeHash] = RLP.decode(value!) as Uint8Array[];
  assert.is(hexQ(bytesToBigInt(nonce!)), proof.nonce);
  assert.is(hexQ(bytesToBigInt(balance!)), proof.balance);
  assert.is(bytesToHex(storageRoot!), proof.storageHash);
  assert.is(bytesToHex(codeHash!), proof.codeHash);
  assert.is(proof.codeHash, ethers.keccak256(await call('eth_getCode', [store, number])));
  assert.is(proof.nonce, '0x1'); // EIP-161: a new contract starts at nonce 1

  // a dev account's balance is proven too
  const dev = await verifyAccountProof(devB, number);
  const [, devBalance] = RLP.decode(dev.value!) as Uint8Array[];
  assert.is(hexQ(bytesToBigInt(devBalance!)), await call('eth_getBalance', [devB, number]));
});

State('eth_getProof: the storage proof of Store slot 0 verifies against storageHash', async () => {
  const { store, deploy, set } = await storeFixture();
  for (const [b, expected] of [[deploy, 42n], [set, 7n]] as const) {
    const proof = await call('eth_getProof', [store, ['0x0'], b.number]);
    assert.is(proof.storageProof.length, 1);
    const sp = proof.storageProof[0];
    assert.is(BigInt(sp.value), expected);
    const nodes = sp.proof.map((n: string) => hexToBytes(n as `0x${string}`));
    const key = setLengthLeft(hexToBytes('0x00'), 32);
    const proven = await verifyMerkleProof(key, nodes, { root: hexToBytes(proof.storageHash), useKeyHashing: true });
    assert.ok(proven, 'slot 0 is in the storage trie');
    assert.is(bytesToBigInt(RLP.decode(proven!) as Uint8Array), expected);
  }
});

State('eth_getProof: a proof checked against a different root is refused; an absent account proves absence', async () => {
  const { store, deploy, set } = await storeFixture();
  const proof = await call('eth_getProof', [store, [], set.number]);
  const nodes = proof.accountProof.map((n: string) => hexToBytes(n as `0x${string}`));
  const key = hexToBytes(store as `0x${string}`);
  // The same proof is sound against its own block's root: so what the other root refuses is the root, not the proof.
  const own = await verifyMerkleProof(key, nodes, { root: hexToBytes(set.stateRoot), useKeyHashing: true });
  assert.ok(own, 'the proof verifies against the root of the block it was asked at');
  assert.is.not(deploy.stateRoot, set.stateRoot);
  let refusal = '';
  try {
    await verifyMerkleProof(key, nodes, { root: hexToBytes(deploy.stateRoot), useKeyHashing: true });
  } catch (err) {
    refusal = (err as Error).message;
  }
  assert.match(refusal, /invalid proof|missing node/i, 'the proof of one block does not verify against another block\'s root');
  const absent = await verifyAccountProof('0x3333333333333333333333333333333333333334', set.number);
  assert.is(absent.value, null);
  assert.is(absent.proof.balance, '0x0');
  assert.is(absent.proof.nonce, '0x0');
});

State("eth_getProof at 'earliest' proves the genesis state", async () => {
  const { store } = await storeFixture();
  const dev = await verifyAccountProof(devB, 'earliest');
  assert.is(dev.header.number, '0x0');
  assert.is(dev.proof.balance, hexQ(10n ** 30n), 'the genesis allocation');
  const [, balance] = RLP.decode(dev.value!) as Uint8Array[];
  assert.is(hexQ(bytesToBigInt(balance!)), dev.proof.balance);
  assert.is((await verifyAccountProof(store, 'earliest')).value, null, 'the contract did not exist yet');
});

const selectorsOf = (b: any) => [b.number, { blockNumber: b.number }, b.hash, { blockHash: b.hash }, { blockHash: b.hash, requireCanonical: true }];

State('every block selector form reads code, storage, nonce and balance at that block', async () => {
  const { store, deploy, set } = await storeFixture();
  const before = await block(BigInt(deploy.number) - 1n);
  const nonceAt = async (b: any) => call('eth_getTransactionCount', [devA, b.number]);
  for (const [b, code, slot0] of [[before, false, 0n], [deploy, true, 42n], [set, true, 7n]] as const) {
    const nonce = await nonceAt(b);
    const balance = await call('eth_getBalance', [devA, b.number]);
    for (const sel of selectorsOf(b)) {
      const what = `${JSON.stringify(sel)} (block ${b.number})`;
      const c = await call<string>('eth_getCode', [store, sel]);
      assert.is(c.length > 2, code, what);
      assert.is(await call('eth_getStorageAt', [store, '0x0', sel]), word(slot0), what);
      assert.is(await call('eth_getTransactionCount', [devA, sel]), nonce, what);
      assert.is(await call('eth_getBalance', [devA, sel]), balance, what);
    }
  }
  assert.is(await nonceAt(deploy), hexQ(BigInt(await nonceAt(before)) + 1n));
});

State("'earliest' and 0x0 read the genesis state; latest is the default where the block is optional", async () => {
  const { store } = await storeFixture();
  for (const sel of ['earliest', '0x0', { blockNumber: '0x0' }, { blockNumber: 'earliest' }]) {
    assert.is(await call('eth_getCode', [store, sel]), '0x');
    assert.is(await call('eth_getStorageAt', [store, '0x0', sel]), ZERO32);
    assert.is(await call('eth_getTransactionCount', [devA, sel]), '0x0');
    assert.is(await call('eth_getBalance', [devA, sel]), hexQ(10n ** 30n));
  }
  assert.is(await call('eth_getStorageAt', [store, '0x0', 'latest']), word(7n));
  assert.is(await call('eth_getBalance', [devA]), await call('eth_getBalance', [devA, 'latest']));
  assert.is(await call('eth_getTransactionCount', [devA]), await call('eth_getTransactionCount', [devA, 'latest']));
  // mapping entry: keccak(key . slot 1)
  const slot = ethers.keccak256(ethers.concat([ethers.zeroPadValue(devA, 32), ethers.zeroPadValue('0x01', 32)]));
  assert.is(await call('eth_getStorageAt', [store, slot, 'latest']), word(7n));
});

State.run();

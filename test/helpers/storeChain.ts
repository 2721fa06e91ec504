/**
 * What the eth_* method tests share: a node started on first use, raw JSON-RPC helpers, the regtest
 * accounts, wire formats, and the Store contract deployed (value 42) then set to 7 by a dev account.
 */
import { ethers } from 'ethers';
import * as assert from 'uvu/assert';
import { DEV_ACCOUNTS, NETWORKS } from '../../src/chain/execution/networks.ts';
import { lazyNode } from './node.ts';
import { waitUntil } from './rpc.ts';
import { compileFixture } from './solc.ts';

export const DEV = DEV_ACCOUNTS.map((a) => ethers.hexlify(a.address));
export const MINER = ethers.hexlify(NETWORKS.regtest.defaultCoinbase);
export const [devA, devB, devC, devD] = DEV as [string, string, string, string];
export const ZERO32 = `0x${'00'.repeat(32)}`;
export const UNKNOWN_HASH = `0x${'ab'.repeat(32)}`;

export const hexQ = (n: bigint | number) => `0x${n.toString(16)}`;
export const QTY = /^0x(0|[1-9a-f][0-9a-f]*)$/;
export const DATA = (bytes?: number) => (bytes === undefined ? /^0x([0-9a-f]{2})*$/ : new RegExp(`^0x[0-9a-f]{${2 * bytes}}$`));
export const word = (n: bigint) => `0x${n.toString(16).padStart(64, '0')}`;

export const { abi, bytecode } = compileFixture('Store.sol', 'Store');
export const iface = new ethers.Interface(abi);

export interface StoreFixture { store: string; deployHash: string; deploy: any; set: any }

/** A lazily started node with the helpers bound to it; call `stop` in the suite's `after`. */
export function storeChain() {
  const node = lazyNode();
  const { call } = node;
  const receiptOf = (hash: string) =>
    waitUntil(() => call('eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined), { what: `receipt of ${hash}` });
  /** eth_sendTransaction from a node-held account, waiting for the receipt. */
  const sendAndMine = async (tx: Record<string, string>) => {
    const hash = await call<string>('eth_sendTransaction', [tx]);
    assert.match(hash, DATA(32));
    return receiptOf(hash);
  };
  const block = (sel: string | number | bigint, full = false) =>
    call(typeof sel === 'string' && sel.length === 66 ? 'eth_getBlockByHash' : 'eth_getBlockByNumber', [typeof sel === 'string' ? sel : hexQ(sel), full]);
  /** Store deployed at block `deploy`, then set(7) at block `set`; made by the first test that needs it. */
  let fixture: Promise<StoreFixture> | undefined;
  const storeFixture = () => (fixture ??= (async () => {
    const deployReceipt = await sendAndMine({ from: devA, data: bytecode + iface.encodeDeploy([42n]).slice(2), gas: hexQ(3_000_000) });
    assert.is(deployReceipt.status, '0x1');
    const store = deployReceipt.contractAddress as string;
    const setReceipt = await sendAndMine({ from: devA, to: store, data: iface.encodeFunctionData('set', [7n]), gas: hexQ(200_000) });
    assert.is(setReceipt.status, '0x1');
    return { store, deployHash: deployReceipt.transactionHash, deploy: await block(deployReceipt.blockHash), set: await block(setReceipt.blockHash) };
  })());
  return { ...node, receiptOf, sendAndMine, block, storeFixture };
}

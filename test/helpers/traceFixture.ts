/**
 * A chain with known calls for trace tests (test/fixtures/Tracing.sol): Caller deployed in one
 * block, then one block holding four signed transactions sent as one batch, in this order:
 * nested(5) (CALL, STATICCALL that reverts, STATICCALL, DELEGATECALL), failing() (reverts at the
 * top), spawnAndKill() with value (CREATE, CALL, SELFDESTRUCT), and a plain transfer.
 */
import { ethers } from 'ethers';
import * as assert from 'uvu/assert';
import { post, rpc, waitUntil } from './rpc.ts';
import { compileFixture } from './solc.ts';

export const SENDER = new ethers.Wallet('0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4');
export const OTHER = new ethers.Wallet('0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae');
/** The value spawnAndKill gives the contract it creates and self-destructs. */
export const KILL_VALUE = 0x1234n;
export const GAS = 3_000_000;

export const callerAbi = new ethers.Interface(compileFixture('Tracing.sol', 'Caller').abi);

export interface TraceFixture {
  readonly caller: string;
  readonly callee: string;
  readonly doomed: string;
  readonly deploy: any;
  readonly nested: any;
  readonly failing: any;
  readonly kill: any;
  readonly transfer: any;
  /** The block of the four transactions. */
  readonly block: any;
}

const receipt = (url: string, hash: string) =>
  waitUntil(() => rpc(url, 'eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined), { what: `receipt of ${hash}` });

export async function deployTraceFixture(url: string): Promise<TraceFixture> {
  const nonce = Number(await rpc(url, 'eth_getTransactionCount', [SENDER.address, 'pending']));
  const otherNonce = Number(await rpc(url, 'eth_getTransactionCount', [OTHER.address, 'pending']));
  const sign = (w: ethers.Wallet, n: number, fields: ethers.TransactionRequest) =>
    w.signTransaction({ type: 0, chainId: 33, gasPrice: 0, gasLimit: GAS, nonce: n, ...fields });
  const { bytecode } = compileFixture('Tracing.sol', 'Caller');
  const deploy = await receipt(url, await rpc(url, 'eth_sendRawTransaction', [await sign(SENDER, nonce, { data: bytecode })]));
  assert.is(deploy.status, '0x1');
  const caller = deploy.contractAddress as string;
  // A contract's nonce starts at 1: Callee came from nonce 1, the Doomed of spawnAndKill comes from nonce 2.
  const callee = ethers.getCreateAddress({ from: caller, nonce: 1 }).toLowerCase();
  const doomed = ethers.getCreateAddress({ from: caller, nonce: 2 }).toLowerCase();

  const raws = [
    await sign(SENDER, nonce + 1, { to: caller, data: callerAbi.encodeFunctionData('nested', [5n]) }),
    await sign(SENDER, nonce + 2, { to: caller, data: callerAbi.encodeFunctionData('failing') }),
    await sign(SENDER, nonce + 3, { to: caller, data: callerAbi.encodeFunctionData('spawnAndKill'), value: KILL_VALUE }),
    await sign(OTHER, otherNonce, { to: SENDER.address, value: 1n, gasLimit: 21_000 }),
  ];
  // One batch: the pool takes all four before the miner asks it for a block.
  const { json } = await post(url, JSON.stringify(raws.map((raw, id) => ({ jsonrpc: '2.0', id, method: 'eth_sendRawTransaction', params: [raw] }))));
  const hashes = (json as { result: string }[]).map((r) => r.result);
  const [nested, failing, kill, transfer] = await Promise.all(hashes.map((h) => receipt(url, h)));
  assert.ok([failing, kill, transfer].every((r) => r.blockHash === nested.blockHash), 'the four transactions share a block');
  assert.equal([nested.status, failing.status, kill.status, transfer.status], ['0x1', '0x0', '0x1', '0x1']);
  const block = await rpc(url, 'eth_getBlockByHash', [nested.blockHash, false]);
  return { caller, callee, doomed, deploy, nested, failing, kill, transfer, block };
}

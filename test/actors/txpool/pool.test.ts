/**
 * The pool over JSON-RPC on real nodes: nonce gaps, replacement below and at the price bump, the
 * per-sender and overall limits with eviction of the cheapest, every refusal a -32010 with its
 * reason and nothing admitted, and the txpool_* shapes (README "Transaction pool").
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, type TestNode } from '../../helpers/node.ts';
import { rpc, rpcError, waitUntil } from '../../helpers/rpc.ts';

const KEYS = [
  '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4',
  '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  '0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d',
  '0x1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75',
  '0x3927ff59ac5da854e7633682792aae26e8f83b515c3c6dc7520b5733d4588b8a',
  '0x20e4a6381bd3826a14f8da63653d94e7102b38eb5f929c7a94652f41fa7ba323',
  '0xc1783a9a8222e47778911c58bb5aac1343eb425159ff140799e0a283bfb8fa16',
].map((k) => new ethers.Wallet(k));
const TO = '0x2222222222222222222222222222222222222222';

const Pool = suite('txpool over JSON-RPC');
const nodes: TestNode[] = [];
Pool.after(async () => { for (const n of nodes.reverse()) await n.stop(); });

const start = async (overrides: Parameters<typeof startTestNode>[0]) => {
  const n = await startTestNode(overrides);
  nodes.push(n);
  return n.url;
};
let automine: Promise<string> | undefined;
let idle: Promise<string> | undefined;
let small: Promise<string> | undefined;
/** Mines each transaction as it becomes executable. */
const autoNode = () => (automine ??= start({}));
/** Never mines: everything stays in the pool. */
const idleNode = () => (idle ??= start({ mining: 'off' }));
/** Never mines, and holds at most 4 transactions, at most 3 nonces ahead per sender. */
const smallNode = () => (small ??= start({ mining: 'off', txpool: { maxTxs: 4, accountSlots: 3 } }));

const sign = (wallet: ethers.Wallet, nonce: number, fields: ethers.TransactionRequest = {}) =>
  wallet.signTransaction({ type: 0, chainId: 33, nonce, gasLimit: 21_000, gasPrice: 1, to: TO, value: 1, ...fields });
const send = async (url: string, raw: string) => rpc<string>(url, 'eth_sendRawTransaction', [raw]);
const status = (url: string) => rpc<{ pending: number; queued: number }>(url, 'txpool_status');

async function refused(url: string, raw: string, reason: RegExp) {
  const before = await status(url);
  const err = await rpcError(url, 'eth_sendRawTransaction', [raw]);
  assert.is(err.code, -32010, `${err.code} ${err.message}`);
  assert.match(err.message, reason);
  assert.equal(await status(url), before, 'nothing admitted');
  assert.is(await rpc(url, 'eth_getTransactionByHash', [ethers.keccak256(raw)]), null);
}

Pool('a nonce gap waits in queued and is mined once filled', async () => {
  const url = await autoNode();
  const w = KEYS[0]!;
  const later = await send(url, await sign(w, 1));
  assert.equal(await status(url), { pending: 0, queued: 1 });
  const tx = await rpc(url, 'eth_getTransactionByHash', [later]);
  assert.is(tx.blockHash, null);
  assert.is(await rpc(url, 'eth_getTransactionReceipt', [later]), null);
  const first = await send(url, await sign(w, 0));
  const receipts = await waitUntil(async () => {
    const rs = await Promise.all([first, later].map((h) => rpc(url, 'eth_getTransactionReceipt', [h])));
    return rs.every(Boolean) && rs;
  }, { what: 'both transactions mined' });
  assert.is(receipts[0].status, '0x1');
  assert.is(receipts[1].status, '0x1');
  assert.equal(await status(url), { pending: 0, queued: 0 });
});

Pool('a pending transaction has null block fields and no receipt; txpool_* show it in the reference shapes', async () => {
  const url = await idleNode();
  const w = KEYS[1]!;
  const pendingHash = await send(url, await sign(w, 0, { gasPrice: 60_000_000, value: 0 }));
  const queuedHash = await send(url, await sign(w, 2, { to: undefined, data: '0x6000', gasLimit: 60_000, gasPrice: 0x80, value: 200 }));
  const tx = await rpc(url, 'eth_getTransactionByHash', [pendingHash]);
  assert.equal([tx.blockHash, tx.blockNumber, tx.transactionIndex], [null, null, null]);
  assert.is(tx.hash, pendingHash);
  assert.is(await rpc(url, 'eth_getTransactionReceipt', [pendingHash]), null);

  const sender = w.address.toLowerCase().slice(2);
  const content = await rpc(url, 'txpool_content');
  assert.equal(Object.keys(content), ['pending', 'queued']);
  assert.equal(content.pending[sender]['0'], [{
    blockHash: `0x${'0'.repeat(64)}`, blockNumber: null, transactionIndex: null, from: `0x${sender}`, gas: '0x5208',
    gasPrice: '0x03938700', hash: pendingHash, input: '0x', nonce: '0x0', to: TO, value: '0x00',
  }]);
  const creation = content.queued[sender]['2'][0];
  assert.is(creation.hash, queuedHash);
  assert.is(creation.to, '0x00', "a creation's `to` is 0x00");
  assert.is(creation.gasPrice, '0x0080', 'gas price as Java signed bytes');
  assert.is(creation.value, '0x00c8');
  const inspect = await rpc(url, 'txpool_inspect');
  assert.equal(inspect.pending[sender]['0'], [`${TO.slice(2)}: 0 wei + 21000 x 60000000 gas`]);
  assert.equal(inspect.queued[sender]['2'], [': 200 wei + 60000 x 128 gas']);
  assert.equal(await status(url), { pending: 1, queued: 1 });
});

Pool('a same-nonce replacement needs the 40 % price bump; the replaced one is gone', async () => {
  const url = await idleNode();
  const w = KEYS[2]!;
  const original = await send(url, await sign(w, 0, { gasPrice: 100 }));
  await refused(url, await sign(w, 0, { gasPrice: 139, value: 2 }), /gas price not enough to bump transaction: 139 given, at least 140 needed/);
  await refused(url, await sign(w, 0, { gasPrice: 100, value: 3 }), /not enough to bump/);
  const replacement = await send(url, await sign(w, 0, { gasPrice: 140, value: 4 }));
  assert.is(await rpc(url, 'eth_getTransactionByHash', [original]), null);
  assert.is((await rpc(url, 'eth_getTransactionByHash', [replacement])).value, '0x4');
  const mine = (await rpc(url, 'txpool_content')).pending[w.address.toLowerCase().slice(2)];
  assert.equal(Object.keys(mine), ['0']);
  assert.is(mine['0'][0].hash, replacement);
  // A queued transaction is replaced by the same rule.
  await send(url, await sign(w, 5, { gasPrice: 10 }));
  await refused(url, await sign(w, 5, { gasPrice: 11 }), /bump/);
  await send(url, await sign(w, 5, { gasPrice: 14 }));
});

Pool('new price ≥ old × 1.4 replaces: at the default price 0, a second transaction with the nonce overwrites the first (raw and eth_sendTransaction)', async () => {
  const url = await idleNode();
  const raw = KEYS[4]!;
  const first = await send(url, await sign(raw, 0, { gasPrice: 0, value: 1 }));
  const second = await send(url, await sign(raw, 0, { gasPrice: 0, value: 2 }));
  assert.is(await rpc(url, 'eth_getTransactionByHash', [first]), null);
  assert.is((await rpc(url, 'eth_getTransactionByHash', [second])).value, '0x2');
  // eth_sendTransaction: no gasPrice means the block minimum, 0 here; the nonce names the one to overwrite.
  const from = KEYS[5]!.address;
  const mine = await rpc<string>(url, 'eth_sendTransaction', [{ from, to: TO, value: '0x1' }]);
  const over = await rpc<string>(url, 'eth_sendTransaction', [{ from, to: TO, value: '0x3', nonce: '0x0' }]);
  assert.is(await rpc(url, 'eth_getTransactionByHash', [mine]), null);
  assert.is((await rpc(url, 'eth_getTransactionByHash', [over])).value, '0x3');
  assert.equal(Object.keys((await rpc(url, 'txpool_content')).pending[from.toLowerCase().slice(2)]), ['0']);
});

Pool('refusals: -32010 with the reason, nothing admitted', async () => {
  const url = await idleNode();
  const w = KEYS[3]!;
  await refused(url, await sign(w, 0, { chainId: 31 }), /chain id/i);
  const signed = ethers.Transaction.from(await sign(w, 0));
  const highS = ethers.Signature.from({ r: signed.signature!.r, s: ethers.toBeHex(ethers.N - BigInt(signed.signature!.s), 32), v: signed.signature!.v });
  const tampered = ethers.Transaction.from({ ...signed.toJSON(), signature: highS }).serialized;
  await refused(url, tampered, /signature/);
  await refused(url, await sign(w, 0, { gasLimit: 20_000 }), /basic cost is above the gas limit/);
  await refused(url, await sign(w, 0, { data: `0x${'00'.repeat(140_000)}`, gasLimit: 6_000_000 }), /size is higher than defined maximum/);
  await refused(url, await sign(ethers.Wallet.createRandom() as unknown as ethers.Wallet, 0), /insufficient funds/);
  await refused(url, await sign(w, 0, { to: undefined, data: `0x${'00'.repeat(50_000)}`, gasLimit: 6_000_000 }), /init code size is invalid/);
  // What the sender's waiting transactions may cost counts against its balance too.
  const balance = BigInt(await rpc(url, 'eth_getBalance', [w.address, 'latest']));
  const nearlyAll = balance - 21_000n * 2n - 10n;
  await send(url, await sign(w, 0, { value: nearlyAll }));
  await refused(url, await sign(w, 1, { value: 20n }), /insufficient funds to pay for pending and new transactions/);
});

Pool('underpriced: below the next block\'s minimum gas price is -32010', async () => {
  const url = await start({ mining: 'off', minGasPrice: 1_000n });
  assert.is(await rpc(url, 'evm_mine'), null); // the minimum moves from 0 toward 1000 by at least 1 per block
  const minimum = BigInt((await rpc(url, 'eth_getBlockByNumber', ['latest', false])).minimumGasPrice);
  assert.is(minimum, 1n);
  // The head's minimum would not be mined: the next block's is 2.
  await refused(url, await sign(KEYS[0]!, 0, { gasPrice: 1 }), /gas price lower than block's minimum: 1 < 2 \(the next block's\)/);
  await send(url, await sign(KEYS[0]!, 0, { gasPrice: 2 }));
});

Pool('per sender at most `accountSlots` nonces ahead; a full pool refuses the cheap and evicts the cheapest for the better', async () => {
  const url = await smallNode();
  const [a, b, c] = [KEYS[4]!, KEYS[5]!, KEYS[6]!];
  await refused(url, await sign(a, 3), /nonce too high: the account's nonce is 0, at most 3 ahead may wait/);
  const a0 = await send(url, await sign(a, 0, { gasPrice: 50 }));
  const a1 = await send(url, await sign(a, 1, { gasPrice: 10 }));
  const b0 = await send(url, await sign(b, 0, { gasPrice: 20 }));
  const b2 = await send(url, await sign(b, 2, { gasPrice: 30 }));
  assert.equal(await status(url), { pending: 3, queued: 1 });
  await refused(url, await sign(c, 0, { gasPrice: 10 }), /transaction pool is full \(4 transactions\)/);
  // The cheapest among each sender's last nonce is a1 (10): it goes, a0 stays executable.
  const c0 = await send(url, await sign(c, 0, { gasPrice: 11 }));
  assert.is(await rpc(url, 'eth_getTransactionByHash', [a1]), null);
  for (const h of [a0, b0, b2, c0]) assert.ok(await rpc(url, 'eth_getTransactionByHash', [h]), `${h} still waits`);
  assert.equal(await status(url), { pending: 3, queued: 1 });
  // A replacement does not need room.
  await send(url, await sign(b, 2, { gasPrice: 50 }));
  assert.equal(await status(url), { pending: 3, queued: 1 });
});

Pool.run();

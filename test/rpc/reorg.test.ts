/**
 * Filters and WebSocket subscriptions when the head moves to a heavier side branch: log filters and
 * `logs` subscriptions get the dropped block's logs again with `removed: true`, then the new
 * branch's logs; block filters and `newHeads` get the new branch. The side branch is built on a
 * second chain that shares the history, and imported into the served one by hand.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import type { Block } from '../../src/chain/codec/block.ts';
import { hex } from '../../src/chain/codec/bytes.ts';
import { openTestChain, type TestChain } from '../helpers/chain.ts';
import { mine, Sender, serveChain, topic, type ServedChain } from '../helpers/logChain.ts';
import { rpc, rpcError, waitUntil } from '../helpers/rpc.ts';

const Reorg = suite('reorg: filters and subscriptions');
const OLD = topic(0x01);
const NEW1 = topic(0x02);
const NEW2 = topic(0x03);

let a: TestChain;
let b: TestChain;
let served: ServedChain;
let loggerAddress: Uint8Array;
const closers: (() => Promise<void> | void)[] = [];
Reorg.after(async () => { for (const close of closers.reverse()) await close(); });

/** A WebSocket JSON-RPC client that records every notification. */
async function connect(url: string) {
  const ws = new WebSocket(url);
  closers.push(() => ws.close());
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const replies = new Map<number, any>();
  const notes: any[] = [];
  let binaryFrames = 0;
  ws.on('message', (data, isBinary) => {
    if (isBinary) binaryFrames++;
    const msg = JSON.parse(data.toString());
    if (msg.method === 'eth_subscription') notes.push(msg.params);
    else replies.set(msg.id, msg);
  });
  let nextId = 1;
  const request = async (method: string, params: unknown[] = []) => {
    const id = nextId++;
    ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return waitUntil(() => replies.get(id), { what: `the reply to ${method}` });
  };
  const of = (subscription: string) => notes.filter((n) => n.subscription === subscription).map((n) => n.result);
  return { ws, request, of, binaryFrames: () => binaryFrames };
}

Reorg('setup: a served chain and a second chain with the same history', async () => {
  a = await openTestChain();
  b = await openTestChain();
  closers.push(() => a.close(), () => b.close());
  served = await serveChain(a);
  closers.push(() => served.stop());
  const sender = new Sender(a);
  const deploy = sender.deployTx();
  loggerAddress = deploy.address;
  const { block } = await mine(a, [deploy.tx]);
  assert.is((await b.writer.import(block)).result, 'IMPORTED_BEST');
});

Reorg('removed logs of the dropped block come first, then the new branch', async () => {
  const logFilter = await rpc<string>(served.url, 'eth_newFilter', [{ address: hex(loggerAddress) }]);
  const blockFilter = await rpc<string>(served.url, 'eth_newBlockFilter');
  const client = await connect(served.wsUrl);
  const logsSub = (await client.request('eth_subscribe', ['logs', { address: hex(loggerAddress) }])).result;
  const headsSub = (await client.request('eth_subscribe', ['newHeads'])).result;

  // The served chain mines a block with one log; the filter and the subscriber see it.
  const sa = new Sender(a);
  sa.nonce = 1n;
  const { block: dropped, outcome } = await mine(a, [sa.raw(loggerAddress, [OLD], '0x0a')]);
  served.announce(outcome.headChange!);
  const first = await rpc<any[]>(served.url, 'eth_getFilterChanges', [logFilter]);
  assert.equal(first.map((l) => [l.topics[0], l.removed]), [[OLD, false]]);
  assert.equal(await rpc(served.url, 'eth_getFilterChanges', [blockFilter]), [hex(dropped.hash)]);
  await waitUntil(() => client.of(logsSub).length === 1, { what: 'the first log notification' });

  // The other chain grows two blocks on the shared parent: heavier, so it wins.
  const sb = new Sender(b);
  sb.nonce = 1n;
  const side: Block[] = [
    (await mine(b, [sb.raw(loggerAddress, [NEW1], '0x0b')])).block,
    (await mine(b, [sb.raw(loggerAddress, [NEW2], '0x0c')])).block,
  ];
  for (const block of side) await served.import(block);
  assert.is(hex(a.reader.head().hash), hex(side[1]!.hash));

  const changes = await rpc<any[]>(served.url, 'eth_getFilterChanges', [logFilter]);
  assert.equal(changes.map((l) => [l.topics[0], l.removed, l.blockHash]), [
    [OLD, true, hex(dropped.hash)],
    [NEW1, false, hex(side[0]!.hash)],
    [NEW2, false, hex(side[1]!.hash)],
  ]);
  assert.equal(changes[0], { ...first[0], removed: true }, 'the removed log is the log given before, flagged');
  assert.equal(await rpc(served.url, 'eth_getFilterChanges', [blockFilter]), side.map((s) => hex(s.hash)));

  await waitUntil(() => client.of(logsSub).length === 4, { what: 'the reorg log notifications' });
  assert.equal(client.of(logsSub).map((l) => [l.topics[0], l.removed]), [[OLD, false], [OLD, true], [NEW1, false], [NEW2, false]]);
  await waitUntil(() => client.of(headsSub).length === 3, { what: 'the new heads' });
  const heads = client.of(headsSub);
  assert.equal(heads.map((h) => h.hash), [hex(dropped.hash), ...side.map((s) => hex(s.hash))]);
  assert.is(heads[2].number, '0x3');
  assert.is(heads[2].parentHash, hex(side[0]!.hash));
  assert.is(heads[2].transactions, undefined, 'a head is the header only');

  // History now holds the new branch only.
  const history = await rpc<any[]>(served.url, 'eth_getLogs', [{ fromBlock: '0x0' }]);
  assert.equal(history.map((l) => l.topics[0]), [NEW1, NEW2]);
  assert.equal(await rpc<any[]>(served.url, 'eth_getFilterLogs', [logFilter]), [changes[2]], 'from latest: the head block');
});

Reorg('over WebSocket: every HTTP method, subscription errors, unsubscribe', async () => {
  const client = await connect(served.wsUrl);
  const logs = await client.request('eth_getLogs', [{ fromBlock: '0x0' }]);
  assert.is(logs.result.length, 2);
  assert.is(client.binaryFrames(), 0, 'replies are text frames, also those written as bytes');
  const bad: [unknown[], RegExp][] = [
    [['syncing'], /unknown subscription "syncing"; this node offers newHeads, logs and newPendingTransactions/],
    [['logs', { blockHash: `0x${'11'.repeat(32)}` }], /blockHash is accepted by eth_getLogs only/],
    [['logs', { topics: ['0x12'] }], /invalid argument 1 \(filter\)\.topics\[0\]: expected a 32-byte hash/],
    [['newHeads', { address: '0x' }], /newHeads takes no options/],
    [[], /missing argument 0 \(subscription\): expected a string/],
  ];
  for (const [params, message] of bad) {
    const reply = await client.request('eth_subscribe', params);
    assert.is(reply.error?.code, -32602, JSON.stringify(params));
    assert.match(reply.error.message, message);
  }
  const id = (await client.request('eth_subscribe', ['newPendingTransactions'])).result;
  assert.match(id, /^0x[1-9a-f][0-9a-f]*$/);
  assert.is((await client.request('eth_unsubscribe', [id])).result, true);
  assert.is((await client.request('eth_unsubscribe', [id])).result, false);
  const parse = await new Promise<any>((resolve) => { client.ws.once('message', (d) => resolve(JSON.parse(d.toString()))); client.ws.send('{nope'); });
  assert.is(parse.error.code, -32700);
  // Over HTTP there is no connection to push to.
  assert.is((await rpcError(served.url, 'eth_subscribe', ['newHeads'])).code, -32601);
});

Reorg('a filter nobody polls is dropped at its buffer cap, and its id says so', async () => {
  const capped = await serveChain(a, { maxBuffered: 2 });
  closers.push(() => capped.stop());
  const id = await rpc<string>(capped.url, 'eth_newBlockFilter');
  for (let i = 0; i < 3; i++) capped.announce({ head: a.reader.head(), added: [(await a.reader.canonicalBlock(BigInt(i)))!], removed: [] });
  const err = await rpcError(capped.url, 'eth_getFilterChanges', [id]);
  assert.is(err.code, -32000);
  assert.match(err.message, /^filter not found: 0x[0-9a-f]+ \(it was dropped: more than 2 changes waited for a poll\)$/);
});

Reorg.run();

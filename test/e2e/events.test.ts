/**
 * Client libraries following events on a real node: ethers `contract.on` and viem
 * `watchContractEvent` (both polling eth_newFilter / eth_getFilterChanges over HTTP) and ethers
 * WebSocketProvider (eth_subscribe newHeads and logs) each receive every event exactly once.
 */
import { ethers } from 'ethers';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createPublicClient, defineChain, http, type Address } from 'viem';
import { startTestNode, type TestNode } from '../helpers/node.ts';
import { waitUntil } from '../helpers/rpc.ts';
import { compileFixture } from '../helpers/solc.ts';

const DEV_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const { abi, bytecode } = compileFixture('Logger.sol', 'Logger');
/** Pong values of the events under test; 0 is the warm-up value. */
const VALUES = Array.from({ length: 12 }, (_, i) => i + 1);

const Events = suite('events in client libraries');
const closers: (() => Promise<void> | void)[] = [];
Events.after(async () => { for (const close of closers.reverse()) await close(); });

Events('ethers contract.on, viem watchContractEvent and ethers over WebSocket get every event exactly once', async () => {
  const node: TestNode = await startTestNode();
  closers.push(() => node.stop());
  const provider = new ethers.JsonRpcProvider(node.url, undefined, { staticNetwork: true, pollingInterval: 20, cacheTimeout: -1 });
  // ethers v6 quirk: a filter poll in flight when its listener is removed registers for the next
  // block anyway, and a destroyed provider then polls for blocks forever. So: let any poll land
  // (and the filter's uninstall go out), remove what it registered, then destroy.
  closers.push(async () => {
    await provider.send('eth_blockNumber', []);
    await provider.send('eth_blockNumber', []);
    await provider.removeAllListeners();
    provider.destroy();
  });
  const wallet = new ethers.Wallet(DEV_KEY, provider);
  const logger = (await (await new ethers.ContractFactory(abi, bytecode, wallet).deploy()).waitForDeployment()) as ethers.Contract;
  const address = (await logger.getAddress()) as Address;

  const seen = { ethers: [] as number[], viem: [] as number[], ws: [] as number[] };
  await logger.on('Pong', (value: bigint) => { seen.ethers.push(Number(value)); });
  closers.push(async () => { await logger.removeAllListeners(); });

  const chain = defineChain({ id: 33, name: 'mmnode regtest', nativeCurrency: { name: 'Native', symbol: 'NAT', decimals: 18 }, rpcUrls: { default: { http: [node.url] } } });
  const client = createPublicClient({ chain, transport: http(node.url), pollingInterval: 20, cacheTime: 0 });
  const unwatch = client.watchContractEvent({
    address, abi, eventName: 'Pong', poll: true, pollingInterval: 20,
    onLogs: (logs) => { for (const l of logs) seen.viem.push(Number((l as unknown as { args: { value: bigint } }).args.value)); },
  });
  closers.push(unwatch);

  const ws = new ethers.WebSocketProvider(node.url.replace(/^http/, 'ws'));
  closers.push(() => ws.destroy());
  const heads: number[] = [];
  await ws.on('block', (n: number) => { heads.push(n); });
  const wsLogger = new ethers.Contract(address, abi, ws);
  await wsLogger.on('Pong', (value: bigint) => { seen.ws.push(Number(value)); });

  // Each library installs its filter or subscription on its own schedule: send warm-up events until all three hear one.
  await waitUntil(async () => {
    await (await logger.ping!(0, 0)).wait();
    return seen.ethers.includes(0) && seen.viem.includes(0) && seen.ws.includes(0);
  }, { what: 'every listener to hear a warm-up event', timeoutMs: 20_000 });

  // Twelve events in batches sent together, so some blocks hold several.
  const receipts: ethers.TransactionReceipt[] = [];
  let nonce = await provider.getTransactionCount(wallet.address, 'pending');
  for (let batch = 0; batch < VALUES.length; batch += 4) {
    const sent = await Promise.all(VALUES.slice(batch, batch + 4).map((v) => logger.ping!(0, v, { nonce: nonce++ })));
    receipts.push(...(await Promise.all(sent.map((tx) => tx.wait()))).map((r) => r!));
  }
  const real = (values: number[]) => values.filter((v) => v !== 0);
  await waitUntil(() => Object.values(seen).every((values) => real(values).length >= VALUES.length), { what: 'every event in every library', timeoutMs: 20_000 });
  const blocksOfEvents = [...new Set(receipts.map((r) => r.blockNumber))];
  assert.ok(blocksOfEvents.length < VALUES.length, 'some blocks hold several events');
  await waitUntil(() => blocksOfEvents.every((n) => heads.includes(n)), { what: 'newHeads of the event blocks' });
  // Let one more block pass, so that a late duplicate would have arrived.
  await (await logger.ping!(0, 0)).wait();
  await waitUntil(() => heads.length > 0 && heads.at(-1)! > blocksOfEvents.at(-1)!, { what: 'the next head' });
  for (const [library, values] of Object.entries(seen)) {
    assert.equal(real(values).sort((x, y) => x - y), VALUES, `${library}: every event exactly once`);
  }
  assert.equal(heads, [...new Set(heads)].sort((x, y) => x - y), 'heads arrive once each, in order');
});

Events.run();

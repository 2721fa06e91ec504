/**
 * Scripted failures on a running process testnet (docs/testnet.md, "The reorg scenario"). reorg(d):
 * the losing side mines d blocks, the first holding a transaction that logs; the winning side, cut
 * off, mines d + 1; after heal every node takes the longer chain, so the losing side drops d blocks
 * and its log filters and `logs` subscriptions report the log again with `removed: true`.
 */
import { ethers } from 'ethers';
import { NETWORKS } from '../src/chain/execution/networks.ts';
import { rpc, waitUntil } from '../test/helpers/rpc.ts';
import { compileFixture } from '../test/helpers/solc.ts';
import { Conditions } from './conditions.ts';
import type { Supervisor } from './supervisor.ts';

export interface ScenarioDeps {
  readonly supervisor: Supervisor;
  readonly conditions: Conditions;
}

/** A scenario that cannot run as asked (bad depth, a side with no running node). */
export class ScenarioError extends Error {}

export const MAX_REORG_DEPTH = 64;

interface Head { number: number; hash: string }

export interface ReorgReport {
  readonly losing: number[];
  readonly winning: number[];
  /** The last block both sides shared. */
  readonly forkPoint: number;
  /** The losing side's blocks above the fork point, dropped by the reorg. */
  readonly dropped: string[];
  /** The losing side's first running node: it mines that side's blocks and holds the filter. */
  readonly watched: number;
  /** How many of the dropped blocks the watched node replaced. */
  readonly depth: number;
  /** The head every node agreed on after heal. */
  readonly head: Head;
  /** The log mined on the losing side. */
  readonly log: { address: string; transactionHash: string; blockHash: string };
  /** Logs a filter on the watched node reported with removed: true after the reorg. */
  readonly removedLogs: number;
  /** From heal until every running node had the new head. */
  readonly convergedMs: number;
}

/** The last development account signs the scenario's transactions (the first ones are the wallet's). */
const SIGNER = new ethers.Wallet(ethers.hexlify(NETWORKS.regtest.devAccounts.at(-1)!.privateKey));

export async function reorg(net: ScenarioDeps, depth: number, groups?: readonly number[][]): Promise<ReorgReport> {
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_REORG_DEPTH) throw new ScenarioError(`the depth must be a whole number from 1 to ${MAX_REORG_DEPTH}`);
  const { supervisor, conditions } = net;
  if (groups && groups.length !== 2) throw new ScenarioError('a reorg takes two groups of nodes: the losing side, then the winning side');
  const half = Math.ceil(supervisor.size / 2);
  const [losing = [], winning = []] = groups ?? [range(0, half), range(half, supervisor.size)];
  new Conditions(supervisor.size).partition([losing, winning]); // checks the groups (two nodes at least) before anything changes
  const nodes = range(0, supervisor.size).map((i) => supervisor.describe(i)).filter((n) => n.state === 'up');
  const running = nodes.map((n) => n.index);
  const runningOf = (side: number[]) => side.filter((i) => running.includes(i));
  const url = (i: number) => nodes.find((n) => n.index === i)!.rpcUrl!;
  const [watched, rival] = [runningOf(losing)[0], runningOf(winning)[0]];
  if (watched === undefined || rival === undefined) throw new ScenarioError('each side needs a running node');
  const paused = nodes.filter((n) => n.role === 'miner');
  await Promise.all(paused.map((n) => rpc(n.rpcUrl!, 'evm_stopMining')));
  try {
    const store = await deployStore(url(watched));
    const fork = await agreeOn(running.map(url), 'every node on one head before the split');

    conditions.partition([losing, winning]);
    await waitUntil(async () => {
      const lists = await Promise.all(running.map(async (i) => ({ i, peers: await rpc<string[]>(url(i), 'net_peerList') })));
      // net_peerList names each peer by the last 8 characters of its id.
      const cutOff = (i: number) => running.filter((j) => conditions.cut(i, j)).map((j) => supervisor.describe(j).peerId!.slice(-8));
      return lists.every(({ i, peers }) => !peers.some((p) => cutOff(i).some((id) => p.startsWith(id))));
    }, { what: 'no connection left between the sides', timeoutMs: 15_000 });

    const filter = await rpc(url(watched), 'eth_newFilter', [{ address: store.address }]);
    const transactionHash = await rpc(url(watched), 'eth_sendRawTransaction', [await store.sign('set', [BigInt(Date.now())])]);
    await mine(url(watched), depth);
    const { blockHash } = await rpc(url(watched), 'eth_getTransactionReceipt', [transactionHash]);
    await agreeOn(runningOf(losing).map(url), 'the losing side on its own chain');
    const dropped = await Promise.all(range(1, depth + 1).map(async (k) => (await blockAt(url(watched), fork.number + k)).hash));
    await mine(url(rival), depth + 1);
    const head = await agreeOn(runningOf(winning).map(url), 'the winning side on its own chain');

    const healed = Date.now();
    conditions.heal();
    await waitUntil(async () => (await Promise.all(running.map(async (i) => (await blockAt(url(i), 'latest')).hash === head.hash))).every(Boolean),
      { what: `every node on the winning head #${head.number}`, timeoutMs: 60_000 });
    const convergedMs = Date.now() - healed;
    const now = await Promise.all(range(1, depth + 1).map((k) => blockAt(url(watched), fork.number + k)));
    const changes: { removed: boolean }[] = await rpc(url(watched), 'eth_getFilterChanges', [filter]);
    await rpc(url(watched), 'eth_uninstallFilter', [filter]);
    return {
      losing, winning, watched, forkPoint: fork.number, dropped, head, convergedMs,
      depth: now.filter((b, k) => b.hash !== dropped[k]).length,
      log: { address: store.address, transactionHash, blockHash },
      removedLogs: changes.filter((l) => l.removed).length,
    };
  } catch (err) {
    conditions.heal();
    throw err;
  } finally {
    await Promise.all(paused.map((n) => rpc(n.rpcUrl!, 'evm_startMining').catch(() => {})));
  }
}

/** Deploys test/fixtures/Store.sol (its `set` emits Stored) through `url` and waits for its receipt there. */
async function deployStore(url: string) {
  const { abi, bytecode } = compileFixture('Store.sol', 'Store');
  const iface = new ethers.Interface(abi);
  const chainId = BigInt(await rpc(url, 'eth_chainId'));
  const gasPrice = BigInt(await rpc(url, 'eth_gasPrice'));
  let nonce = Number(await rpc(url, 'eth_getTransactionCount', [SIGNER.address, 'pending']));
  const signed = (tx: ethers.TransactionRequest) => SIGNER.signTransaction({ ...tx, nonce: nonce++, gasLimit: 1_000_000, gasPrice, chainId });
  const deployed = await rpc(url, 'eth_sendRawTransaction', [await signed({ data: bytecode + iface.encodeDeploy([0n]).slice(2) })]);
  await mine(url, 1);
  const { contractAddress: address } = await rpc(url, 'eth_getTransactionReceipt', [deployed]);
  return { address: address as string, sign: (fn: string, args: unknown[]) => signed({ to: address, data: iface.encodeFunctionData(fn, args) }) };
}

/** Mines `count` blocks on one node with evm_mine (it mines even while its mining is stopped). */
async function mine(url: string, count: number): Promise<void> {
  const start = (await blockAt(url, 'latest')).number;
  for (let k = 1; k <= count; k++) {
    await rpc(url, 'evm_mine');
    await waitUntil(async () => (await blockAt(url, 'latest')).number >= start + k, { what: `block #${start + k} on ${url}` });
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => from + k);

const blockAt = async (url: string, n: number | 'latest'): Promise<Head> => {
  const b = await rpc(url, 'eth_getBlockByNumber', [typeof n === 'number' ? `0x${n.toString(16)}` : n, false]);
  return { number: Number(b.number), hash: b.hash };
};

/** Waits until every node in `urls` has the same head and returns it. */
async function agreeOn(urls: string[], what: string): Promise<Head> {
  return waitUntil(async () => {
    const heads = await Promise.all(urls.map((u) => blockAt(u, 'latest')));
    return heads.every((h) => h.hash === heads[0]!.hash) && heads[0];
  }, { what, timeoutMs: 30_000 });
}

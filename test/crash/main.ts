/**
 * `npm run crash-test -- --cycles 50 [--mining interval|auto]`: a crash loop (docs/hardening.md "Crash loop"). Each
 * cycle starts the node on one data dir (a block every 500 ms, or under automine as `npm start` runs it, each sender
 * then asking for every receipt right after its send, as a test suite does), streams signed transfers at it from three senders,
 * kills it with SIGKILL at a random moment, restarts it and checks that nothing acknowledged was lost:
 * every block and receipt seen before the kill is still there (same hashes), every transaction whose
 * hash was answered gets mined (the pool's journal), and each recipient holds exactly as many coins as its
 * sender's nonce says were sent. Exits 1 on the first loss.
 */
import { ethers } from 'ethers';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startChildNode, tempDir, type ChildNode } from '../helpers/node.ts';
import { rpc, waitUntil } from '../helpers/rpc.ts';

const { values } = parseArgs({ options: { cycles: { type: 'string', default: '10' }, seed: { type: 'string' }, mining: { type: 'string', default: 'interval' } } });
const cycles = Number(values.cycles);
if (values.mining !== 'interval' && values.mining !== 'auto') throw new Error(`--mining must be interval or auto, not ${values.mining}`);
const automine = values.mining === 'auto';
let seed = values.seed === undefined ? Date.now() % 2 ** 31 : Number(values.seed);
/** A small deterministic generator, so a failing run can be repeated with --seed. */
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

const senders = [
  '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  '0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d',
  '0x1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75',
].map((key, i) => ({ wallet: new ethers.Wallet(key), recipient: `0x${String(i + 1).repeat(40)}` }));

/** What the node acknowledged before a kill and must still hold after the restart. */
const seen = { blocks: new Map<string, string>(), receipts: new Map<string, string>(), accepted: new Set<string>() };

class Loss extends Error {}
const check = (ok: boolean, what: string) => { if (!ok) throw new Loss(what); };

/**
 * Streams transfers from one sender until the node dies; every answered hash is remembered. Under automine each
 * send is followed by its receipt, and a receipt answered is remembered as a block seen.
 */
async function stream(node: ChildNode, sender: (typeof senders)[number], until: Promise<unknown>): Promise<void> {
  let stopped = false;
  void until.then(() => { stopped = true; });
  let nonce = Number(await rpc(node.url, 'eth_getTransactionCount', [sender.wallet.address, 'pending']));
  while (!stopped) {
    const raw = await sender.wallet.signTransaction({ to: sender.recipient, value: 1n, nonce, gasLimit: 21_000, gasPrice: 0, chainId: 33 });
    try {
      const hash = await rpc<string>(node.url, 'eth_sendRawTransaction', [raw]);
      seen.accepted.add(hash);
      nonce++;
      if (automine) {
        const receipt = await rpc<{ blockHash: string; blockNumber: string } | null>(node.url, 'eth_getTransactionReceipt', [hash]);
        if (receipt) {
          seen.receipts.set(hash, receipt.blockHash);
          seen.blocks.set(receipt.blockNumber, receipt.blockHash);
        }
      }
    } catch {
      return; // the node is gone (or going): this transaction's fate is unknown, and either is fine
    }
  }
}

/** Samples blocks and receipts while the load runs, as a client would have seen them. */
async function watch(node: ChildNode, until: Promise<unknown>): Promise<void> {
  let stopped = false;
  void until.then(() => { stopped = true; });
  while (!stopped) {
    try {
      const block = await rpc(node.url, 'eth_getBlockByNumber', ['latest', true]);
      seen.blocks.set(block.number, block.hash);
      for (const tx of block.transactions as { hash: string }[]) seen.receipts.set(tx.hash, block.hash);
    } catch {
      return;
    }
  }
}

/** Up to `n` entries of `map`, at random (the whole map at the end of the run). */
const sample = <K, V>(map: Map<K, V>, n: number): [K, V][] => {
  const all = [...map];
  if (all.length <= n) return all;
  return Array.from({ length: n }, () => all[Math.floor(random() * all.length)]!);
};

/** Checks what was acknowledged: the accepted transactions and balances in full, blocks and receipts by a sample of `n`. */
async function verify(node: ChildNode, n: number): Promise<void> {
  for (const [number, hash] of sample(seen.blocks, n)) {
    const block = await rpc(node.url, 'eth_getBlockByNumber', [number, false]);
    check(block?.hash === hash, `block ${number} ${hash} was lost (now ${block?.hash})`);
  }
  for (const [tx, blockHash] of sample(seen.receipts, n)) {
    const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [tx]);
    check(receipt?.blockHash === blockHash, `the receipt of ${tx} was lost`);
  }
  for (const tx of seen.accepted) {
    if (seen.receipts.has(tx)) continue;
    const receipt = await waitUntil(() => rpc(node.url, 'eth_getTransactionReceipt', [tx]), { what: `accepted transaction ${tx} mined after the restart`, timeoutMs: 30_000 })
      .catch(() => undefined);
    check(receipt?.status === '0x1', `accepted transaction ${tx} was lost`);
    seen.receipts.set(tx, receipt.blockHash);
  }
  for (const { wallet, recipient } of senders) {
    const sent = BigInt(await rpc(node.url, 'eth_getTransactionCount', [wallet.address, 'latest']));
    const balance = BigInt(await rpc(node.url, 'eth_getBalance', [recipient, 'latest']));
    check(balance === sent, `${recipient} holds ${balance} but its sender's nonce says ${sent} transfers were mined`);
  }
}

const dataDir = tempDir('mmnode-crash-');
console.log(`crash loop: ${cycles} cycles, ${automine ? 'automine' : 'a block every 500 ms'}, seed ${seed}, data in ${dataDir}`);
const startedMs = Date.now();
/**
 * Blocks on a timer, so that at a kill some accepted transactions always wait in the pool (only its journal keeps
 * them); or automine, where an answered send's block may still be on its way to disk.
 */
const NODE_ARGS = automine ? [] : ['--block-time', '500'];
let node = await startChildNode(dataDir, NODE_ARGS);
try {
  for (let cycle = 1; cycle <= cycles; cycle++) {
    const killAfterMs = 200 + Math.floor(random() * 1_800);
    const killed = new Promise((r) => setTimeout(r, killAfterMs)).then(() => node.child.kill('SIGKILL'));
    await Promise.all([...senders.map((s) => stream(node, s, killed)), watch(node, killed), killed]);
    await node.exited;
    const waiting = [...seen.accepted].filter((tx) => !seen.receipts.has(tx)).length;
    node = await startChildNode(dataDir, NODE_ARGS);
    await verify(node, 300);
    const head = BigInt(await rpc(node.url, 'eth_blockNumber'));
    console.log(`cycle ${cycle}: killed after ${killAfterMs} ms with ${waiting} accepted transactions not yet seen mined; head #${head}, ${seen.accepted.size} accepted so far, all mined`);
  }
  await verify(node, Infinity);
  console.log(`passed: ${cycles} kill -9 cycles, ${seen.accepted.size} accepted transactions, ${seen.blocks.size} blocks checked, in ${((Date.now() - startedMs) / 1000).toFixed(0)} s`);
} catch (err) {
  console.error(err instanceof Loss ? `LOSS: ${err.message}` : err);
  process.exitCode = 1;
} finally {
  node.child.kill('SIGKILL');
  await node.exited;
  if (process.exitCode !== 1) rmSync(dataDir, { recursive: true, force: true });
}

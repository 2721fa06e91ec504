/**
 * `npm run testnet -- --nodes 4 --miners 2`: starts that many node processes on 127.0.0.1, each
 * with its own data dir (testnet/data/node-<i>, kept between runs so the chain resumes), RPC port
 * and P2P port, connected to each other; the first `--miners` mine. Prints one line per node and
 * runs until Ctrl-C, then stops every node cleanly.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startNodeProcess } from './launch.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '4' },
    miners: { type: 'string', default: '2' },
    'block-time': { type: 'string', default: '2000' },
    'rpc-port': { type: 'string', default: '4444' },
    'p2p-port': { type: 'string', default: '5050' },
    dir: { type: 'string', default: join(new URL('.', import.meta.url).pathname, 'data') },
  },
});
const count = Number(values.nodes);
const miners = Number(values.miners);
if (!Number.isInteger(count) || count < 1 || !Number.isInteger(miners) || miners < 0 || miners > count) {
  console.error('Usage: npm run testnet -- --nodes <n ≥ 1> --miners <0..n> [--block-time ms] [--rpc-port first] [--p2p-port first] [--dir path]');
  process.exit(2);
}
interface Started { name: string; child: ChildProcess; rpcUrl: string; multiaddr: string; role: string }

function startOne(i: number, bootnodes: string[]): Promise<Started> {
  const dataDir = join(values.dir!, `node-${i}`);
  mkdirSync(dataDir, { recursive: true });
  const mines = i < miners;
  const args = [
    '--quiet', '--data-dir', dataDir,
    '--rpc-port', String(Number(values['rpc-port']) + i), '--p2p-port', String(Number(values['p2p-port']) + i),
    ...(bootnodes.length ? ['--bootnodes', bootnodes.join(',')] : []),
    // Staggered intervals keep the miners from producing siblings on every round.
    ...(mines ? ['--block-time', String(Number(values['block-time']) + 250 * i), '--coinbase', `0x${(i + 1).toString(16).padStart(40, 'a')}`] : ['--no-mining']),
  ];
  return startNodeProcess(args).then(
    ({ child, ready }) => ({ name: `node-${i}`, child, rpcUrl: ready.rpcUrl, multiaddr: ready.multiaddrs[0]!, role: mines ? 'miner' : 'follower' }),
    (err: Error) => { throw new Error(`node-${i}: ${err.message}`); },
  );
}

const nodes: Started[] = [];
try {
  for (let i = 0; i < count; i++) nodes.push(await startOne(i, nodes.map((n) => n.multiaddr)));
} catch (err) {
  console.error((err as Error).message);
  for (const n of nodes) n.child.kill('SIGTERM');
  process.exit(1);
}

const pad = (s: string, n: number) => s.padEnd(n);
console.log(`\n${pad('name', 8)}  ${pad('rpc', 24)}  ${pad('role', 8)}  p2p`);
for (const n of nodes) console.log(`${pad(n.name, 8)}  ${pad(n.rpcUrl, 24)}  ${pad(n.role, 8)}  ${n.multiaddr}`);
console.log(`\nData in ${values.dir}; Ctrl-C stops every node.`);

let stopping = false;
async function stopAll() {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping...');
  await Promise.all(nodes.map((n) => new Promise<void>((resolve) => {
    if (n.child.exitCode !== null) return resolve();
    n.child.once('exit', () => resolve());
    n.child.kill('SIGTERM');
  })));
  console.log('all nodes stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());
for (const n of nodes) n.child.on('exit', (code) => { if (!stopping) console.error(`${n.name} exited (${code})`); });

/**
 * `npm run testnet -- --nodes 4 --miners 2 [--topology mesh|bootnode]`: starts that many node
 * processes, each behind its relay on its own loopback address (docs/testnet.md), with its own data dir
 * (testnet/data/node-<i>, kept between runs so the chain resumes), RPC port and P2P port; the first
 * `--miners` mine. Serves the control endpoint for `npm run testnet:ctl` and runs until Ctrl-C, then
 * stops every node cleanly.
 */
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { waitUntil } from '../test/helpers/rpc.ts';
import { startCluster, type ClusterOptions } from './cluster.ts';
import type { NodeStatus } from './control.ts';
import { ctl, DEFAULT_CONTROL_PORT, statusText } from './ctl.ts';
import type { Topology } from './supervisor.ts';

const USAGE = `Usage: npm run testnet -- --nodes <n> --miners <0..n> [--topology mesh|bootnode] [--block-time ms]
       [--rpc-port first] [--p2p-port first] [--control-port port] [--dir path]`;

let options: ClusterOptions;
try {
  const { values } = parseArgs({
    options: {
      nodes: { type: 'string', default: '4' },
      miners: { type: 'string', default: '2' },
      topology: { type: 'string', default: 'mesh' },
      'block-time': { type: 'string', default: '2000' },
      'rpc-port': { type: 'string', default: '4444' },
      'p2p-port': { type: 'string', default: '5050' },
      'control-port': { type: 'string', default: String(DEFAULT_CONTROL_PORT) },
      dir: { type: 'string', default: join(new URL('.', import.meta.url).pathname, 'data') },
    },
  });
  options = {
    nodes: Number(values.nodes), miners: Number(values.miners), topology: values.topology as Topology, blockTimeMs: Number(values['block-time']),
    rpcPort: Number(values['rpc-port']), p2pPort: Number(values['p2p-port']), controlPort: Number(values['control-port']), dir: values.dir!,
  };
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(2);
}

const cluster = await startCluster(options).catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
const { supervisor, control } = cluster;
// The last node started a moment ago: give it its first peer before the first status.
const everyoneHasAPeer = async () => (await ctl(control.url, ['status'])).nodes.every((n: NodeStatus) => (n.peers ?? 0) > 0);
await waitUntil(everyoneHasAPeer, { what: 'a peer for every node', timeoutMs: 10_000 }).catch(() => {});
console.log(`\n${statusText(await ctl(control.url, ['status']))}`);
console.log(`\n${options.topology} topology; node i listens on 127.0.1.<i+2> behind its relay on 127.0.0.<i+2>; data in ${relative(process.cwd(), options.dir)}`);
console.log(`Control: ${control.url}   e.g. npm run testnet:ctl -- status   (Ctrl-C stops every node)`);
console.log(`Overview page: ${control.url}/`);

let stopping = false;
async function stopAll() {
  if (stopping) return;
  stopping = true;
  console.log('\nstopping...');
  await cluster.stop();
  console.log('all nodes stopped');
  process.exit(0);
}
process.on('SIGINT', () => void stopAll());
process.on('SIGTERM', () => void stopAll());
supervisor.on('exit', (i, how, requested) => { if (!requested && !stopping) console.error(`node ${i} exited by itself (${how})`); });

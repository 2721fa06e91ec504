/**
 * A testnet of node processes that can be broken on purpose (docs/testnet.md): one relay per node
 * applying the shared conditions, the supervisor of the processes, and the HTTP control endpoint.
 * `npm run testnet` and test/testnet/control.test.ts both start it through startCluster.
 */
import { createServer } from 'node:net';
import { Conditions } from './conditions.ts';
import { serveControl, type ControlServer } from './control.ts';
import { announceHost, listenHost, MAX_NODES } from './hosts.ts';
import { Relay } from './relay.ts';
import { dataDirOf, Supervisor, type Topology } from './supervisor.ts';

export interface ClusterOptions {
  readonly nodes: number;
  /** The first `miners` nodes mine every blockTimeMs (+250 ms per index, so they rarely tie). */
  readonly miners: number;
  readonly topology: Topology;
  readonly blockTimeMs: number;
  /** Node i keeps its data in <dir>/node-<i>. */
  readonly dir: string;
  /** Node i's RPC is on rpcPort + i, its P2P on p2pPort + i; 0 picks free ports. */
  readonly rpcPort: number;
  readonly p2pPort: number;
  /** The control endpoint's port on 127.0.0.1; 0 picks a free one. */
  readonly controlPort: number;
}

export interface Cluster {
  readonly supervisor: Supervisor;
  readonly control: ControlServer;
  /** Stops the control endpoint, every node (SIGTERM) and every relay. */
  stop(): Promise<void>;
}

const STAGGER_MS = 250;

function checkOptions(o: ClusterOptions): void {
  if (!Number.isInteger(o.nodes) || o.nodes < 1 || o.nodes > MAX_NODES) throw new Error(`--nodes must be 1 to ${MAX_NODES}`);
  if (!Number.isInteger(o.miners) || o.miners < 0 || o.miners > o.nodes) throw new Error('--miners must be 0 to --nodes');
  if (o.topology !== 'mesh' && o.topology !== 'bootnode') throw new Error('--topology must be mesh or bootnode');
  if (!Number.isInteger(o.blockTimeMs) || o.blockTimeMs < 10) throw new Error('--block-time must be a whole number of milliseconds, at least 10');
  for (const [name, first, count] of [['--rpc-port', o.rpcPort, o.nodes], ['--p2p-port', o.p2pPort, o.nodes], ['--control-port', o.controlPort, 1]] as const) {
    if (!Number.isInteger(first) || first < 0 || first + count > 65536) throw new Error(`${name} must be 0 (any free port) or leave room for ${count} port(s) below 65536`);
  }
}

export async function startCluster(o: ClusterOptions): Promise<Cluster> {
  checkOptions(o);
  const conditions = new Conditions(o.nodes);
  const relays: Relay[] = [];
  const supervisor = new Supervisor(await Promise.all(Array.from({ length: o.nodes }, async (_, i) => ({
    index: i, role: i < o.miners ? 'miner' as const : 'follower' as const, dataDir: dataDirOf(o.dir, i),
    p2pPort: o.p2pPort ? o.p2pPort + i : await freePortOnBoth(i), rpcPort: o.rpcPort ? o.rpcPort + i : 0, metricsPort: 0,
    blockTimeMs: o.blockTimeMs + STAGGER_MS * i,
  }))), o.topology);
  let control: ControlServer | undefined;
  const stop = async () => {
    await control?.close();
    await supervisor.stopAll();
    await Promise.all(relays.map((r) => r.close()));
  };
  try {
    for (let i = 0; i < o.nodes; i++) {
      const relay = new Relay(i, supervisor.plan(i).p2pPort, conditions);
      await relay.start();
      relays.push(relay);
    }
    // In order: a node's bootnodes are earlier nodes, whose peer ids are known once they ran.
    for (let i = 0; i < o.nodes; i++) await supervisor.start(i);
    control = await serveControl({ supervisor, conditions }, o.controlPort);
  } catch (err) {
    await stop();
    throw err;
  }
  return { supervisor, control, stop };
}

/** A port free on node i's announced host (for its relay) and on its listen host (for the node). */
async function freePortOnBoth(i: number): Promise<number> {
  for (;;) {
    const port = await bindFree(announceHost(i), 0);
    if (await bindFree(listenHost(i), port).then(() => true, () => false)) return port;
  }
}

function bindFree(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      const got = (server.address() as { port: number }).port;
      server.close(() => resolve(got));
    });
  });
}

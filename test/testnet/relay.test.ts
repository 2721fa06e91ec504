/** The testnet relay with plain TCP sockets: who a connection comes from, partitions, latency, order. */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Conditions, ConditionError } from '../../testnet/conditions.ts';
import { announceHost, listenHost, nodeOfListenHost } from '../../testnet/hosts.ts';
import { Relay } from '../../testnet/relay.ts';
import { waitUntil } from '../helpers/rpc.ts';

const RelaySuite = suite('testnet relay');

/** Node 1 stands in as an echo server on its listen host; the relay takes the same port on its announced host. */
let echo: Server;
let relay: Relay;
let conditions: Conditions;
const seenFrom: string[] = [];

RelaySuite.before.each(async () => {
  conditions = new Conditions(3);
  seenFrom.length = 0;
  echo = createServer((s) => { seenFrom.push(s.remoteAddress!); s.on('error', () => {}); s.pipe(s); });
  await new Promise<void>((r) => echo.listen(0, listenHost(1), r));
  const port = (echo.address() as { port: number }).port;
  relay = new Relay(1, port, conditions);
  await relay.start();
});
RelaySuite.after.each(async () => {
  await relay.close();
  await new Promise((r) => echo.close(r));
});

/** A client socket as node `from` would open it (from its listen host), or from 127.0.0.1. */
async function dial(from: number | undefined): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  const socket = connect({ host: announceHost(1), port: relay.port, ...(from !== undefined ? { localAddress: listenHost(from) } : {}) });
  let text = '';
  socket.on('data', (d) => { text += d; });
  socket.on('error', () => {});
  const closed = new Promise<void>((r) => socket.on('close', () => r()));
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  return { socket, received: () => text, closed };
}

RelaySuite('the node sees a connection from node 0 at node 0\'s announced address, and bytes pass both ways', async () => {
  const c = await dial(0);
  c.socket.write('hello');
  await waitUntil(() => c.received() === 'hello', { what: 'the echo' });
  assert.equal(seenFrom, [announceHost(0)]);
  assert.equal(relay.links(), [0]);
  c.socket.destroy();
  await waitUntil(() => relay.links().length === 0, { what: 'the link gone' });
});

RelaySuite('a partition closes live connections between the groups and refuses new ones; heal lets them in again', async () => {
  const across = await dial(0);
  const within = await dial(2);
  conditions.partition([[0], [1, 2]]);
  await across.closed;
  within.socket.write('still here');
  await waitUntil(() => within.received() === 'still here', { what: 'the echo within the group' });
  // Closed as soon as it is accepted: the dialer sees the socket close (or the connect fail).
  const refused = connect({ host: announceHost(1), port: relay.port, localAddress: listenHost(0) });
  refused.on('error', () => {});
  await new Promise((r) => refused.on('close', r));
  assert.equal(seenFrom, [announceHost(0), announceHost(2)], 'the refused connection never reached the node');
  conditions.heal();
  const again = await dial(0);
  again.socket.write('back');
  await waitUntil(() => again.received() === 'back', { what: 'the echo after heal' });
  within.socket.destroy();
  again.socket.destroy();
});

RelaySuite('a connection from an address outside the plan is relayed whatever the conditions', async () => {
  conditions.partition([[0], [1]]);
  const c = await dial(undefined);
  c.socket.write('outsider');
  await waitUntil(() => c.received() === 'outsider', { what: 'the echo' });
  c.socket.destroy();
});

RelaySuite('with latency, small writes keep their order and 8 MB pass intact through the bounded buffers', async () => {
  conditions.setLatency(50, [[0]]);
  assert.is(conditions.delayMs(0, 1), 50);
  assert.is(conditions.delayMs(1, 2), 0, 'nodes named in no group form one group together');
  const c = await dial(0);
  for (let i = 0; i < 100; i++) c.socket.write(`${i},`);
  const expected = Array.from({ length: 100 }, (_, i) => `${i},`).join('');
  await waitUntil(() => c.received() === expected, { what: 'the 100 writes back in order' });
  const big = Buffer.alloc(8 << 20, 'x');
  let got = 0;
  c.socket.removeAllListeners('data');
  c.socket.on('data', (d: Buffer) => { got += d.length; });
  c.socket.write(big);
  await waitUntil(() => got === big.length, { what: '8 MB echoed', timeoutMs: 30_000 });
  c.socket.destroy();
});

RelaySuite('bad conditions are refused with a reason', () => {
  assert.throws(() => conditions.partition([[0], [0, 1]]), (e: Error) => e instanceof ConditionError && /node 0 is in two groups/.test(e.message));
  assert.throws(() => conditions.partition([[3]]), /no node 3: nodes are 0 to 2/);
  assert.throws(() => conditions.partition([]), /at least one group/);
  assert.throws(() => conditions.setLatency(-1), /whole number of milliseconds/);
  assert.throws(() => conditions.setLatency(1.5), /whole number of milliseconds/);
  conditions.partition([[0]]);
  assert.equal(conditions.view().partition, [[0], [1, 2]]);
  conditions.setLatency(20);
  assert.equal(conditions.view().latency, { ms: 20, groups: [[0], [1, 2]] }, 'latency without groups follows the partition');
  conditions.heal();
  assert.is(conditions.delayMs(0, 2), 20, 'latency outlives heal');
  assert.is(nodeOfListenHost('::ffff:127.0.1.5'), 3);
  assert.is(nodeOfListenHost('127.0.0.5'), undefined);
});

RelaySuite.run();

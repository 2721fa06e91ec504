/**
 * Connection limits of the RPC port (docs/hardening.md "Connection limits"): headers and bodies that
 * trickle in are cut with HTTP 408, idle keep-alive connections are closed, and connections past the
 * total or per-IP cap are answered 503 / 429 with a JSON-RPC error, over raw sockets from several
 * loopback addresses (127.0.0.1 itself counts only toward the total). Small limits keep the test short; the node's defaults are in the README table.
 */
import { connect, type Socket } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Dispatcher } from '../../src/rpc/dispatch.ts';
import { method } from '../../src/rpc/method.ts';
import { createRpcServer, listen } from '../../src/rpc/server.ts';

const Connections = suite('connection limits');
const server = createRpcServer(new Dispatcher({ web3_clientVersion: method([], () => 'test') }), undefined, {
  headersTimeoutMs: 1_500, requestTimeoutMs: 2_000, idleTimeoutMs: 1_000, maxConnections: 3, maxConnectionsPerIp: 2,
});
let port = 0;
Connections.before(async () => { port = (await listen(server, '127.0.0.1', 0)).port; });
Connections.after(() => { server.closeAllConnections(); server.close(); });

const BODY = '{"jsonrpc":"2.0","id":1,"method":"web3_clientVersion"}';
const request = (body = BODY) => `POST / HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`;

/** A raw connection from `from`, with everything it received and whether the server closed it. */
async function open(from = '127.0.0.1') {
  const socket: Socket = connect({ host: '127.0.0.1', port, localAddress: from });
  await new Promise((r) => socket.once('connect', r));
  const conn = { socket, received: '', closed: false };
  socket.on('data', (d) => { conn.received += d; });
  const closed = new Promise<void>((r) => socket.once('close', () => { conn.closed = true; r(); }));
  socket.on('error', () => {});
  return { ...conn, get received() { return conn.received; }, get isClosed() { return conn.closed; }, closed };
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const answered = async (c: Awaited<ReturnType<typeof open>>) => { while (!c.received.includes('\r\n\r\n') && !c.isClosed) await pause(20); };

Connections('a body trickling in one byte at a time is cut with HTTP 408', async () => {
  const c = await open();
  const body = `${BODY}${' '.repeat(200)}`;
  c.socket.write(request(body).slice(0, -body.length));
  let sent = 0;
  while (!c.isClosed && sent < body.length) {
    c.socket.write(body[sent++]!);
    await pause(50);
  }
  await c.closed;
  assert.ok(sent < body.length, `cut after ${sent} of ${body.length} bytes`);
  assert.match(c.received, /^HTTP\/1\.1 408/);
});

Connections('headers trickling in are cut with HTTP 408; an idle keep-alive connection is closed', async () => {
  const slow = await open();
  const head = request().split('\r\n\r\n')[0]!;
  let sent = 0;
  while (!slow.isClosed && sent < head.length) {
    slow.socket.write(head[sent++]!);
    await pause(50);
  }
  await slow.closed;
  assert.ok(sent < head.length);
  assert.match(slow.received, /^HTTP\/1\.1 408/);

  const idle = await open();
  idle.socket.write(request());
  await answered(idle);
  assert.match(idle.received, /^HTTP\/1\.1 200/);
  await idle.closed;
  assert.match(idle.received, /"result":"test"/);
});

Connections('past the per-IP cap: HTTP 429; past the total cap: HTTP 503; both with a JSON-RPC error, then closed', async () => {
  const held = [await open('127.0.0.2'), await open('127.0.0.2')];
  const third = await open('127.0.0.2');
  third.socket.write(request());
  await third.closed;
  assert.match(third.received, /^HTTP\/1\.1 429/);
  assert.match(third.received, /"code":-32005,"message":"too many connections from your address: at most 2 at once"/);
  held.push(await open('127.0.0.3'));
  const fourth = await open('127.0.0.4');
  fourth.socket.write(request());
  await fourth.closed;
  assert.match(fourth.received, /^HTTP\/1\.1 503/);
  assert.match(fourth.received, /"jsonrpc":"2.0","id":null,"error":\{"code":-32005,"message":"too many connections: this node serves 3 at once/);

  // A freed place is served again.
  held.shift()!.socket.destroy();
  await pause(50);
  const again = await open('127.0.0.2');
  again.socket.write(request());
  await answered(again);
  assert.match(again.received, /^HTTP\/1\.1 200/);
  for (const c of [...held, again]) c.socket.destroy();
});

Connections('127.0.0.1 (local clients, a reverse proxy) is held only to the total cap', async () => {
  await pause(50);
  const local = [await open('127.0.0.1'), await open('127.0.0.1'), await open('127.0.0.1')];
  for (const c of local) c.socket.write(request());
  for (const c of local) await answered(c);
  assert.ok(local.every((c) => c.received.startsWith('HTTP/1.1 200')), 'three from one address past a per-IP cap of 2');
  const fourth = await open('127.0.0.1');
  fourth.socket.write(request());
  await fourth.closed;
  assert.match(fourth.received, /^HTTP\/1\.1 503/);
  for (const c of local) c.socket.destroy();
});

Connections.run();

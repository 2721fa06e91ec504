/**
 * HTTP transport: POST at `/` or `/<API_KEY>`, JSON bodies up to a limit, CORS for browser dApps.
 * Every reply is a JSON-RPC 2.0 envelope, also for transport errors.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Dispatcher, errorResponse, type JsonRpcResponse } from './dispatch.ts';
import { JsonStream, parseJson, replyJson } from './json.ts';
import { INVALID_REQUEST, PARSE_ERROR, RpcError } from './errors.ts';
import type { HostedGate, Refusal } from './hosted.ts';
import { logger } from '../log.ts';
import { DEADLINE_CHECK_MS, DEFAULT_CONNECTION_LIMITS, limitConnections, refusalOf, type ConnectionLimits } from './connections.ts';

/**
 * Node's HTTP server, taken without an ES import: an ES import of a built-in module reads every export, and
 * node:http's include getters that load Node's fetch (undici) and HTTP/2, about 30 ms of a start
 * (docs/operations.md "Start-up"). The monitor's server comes from here too.
 */
export const { createServer } = process.getBuiltinModule('node:http');

/** Reference `max_aggregated_frame_size`. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;
/** The paths served (HTTP and WebSocket): `/` and `/<API_KEY>`. */
export const RPC_PATH = /^\/([A-Za-z0-9_-]+\/?)?$/;

const log = logger('rpc');

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers': 'content-type, authorization',
};

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = body === undefined ? '' : replyJson(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...CORS });
  res.end(text);
}

const fail = (res: ServerResponse, status: number, code: number, message: string) => send(res, status, errorResponse(null, new RpcError(code, message)));

function refuse(res: ServerResponse, r: Refusal): void {
  if (r.retryAfterSec !== undefined) res.setHeader('retry-after', String(r.retryAfterSec));
  fail(res, r.status, r.code, r.message);
}

/** `gate`: hosted mode (API key in the path, per-key rate limit); without it every path is served. */
export function createRpcServer(dispatcher: Dispatcher, gate?: HostedGate, limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS): Server {
  const server = createServer({ connectionsCheckingInterval: DEADLINE_CHECK_MS }, (req, res) => void serve(dispatcher, req, res, gate));
  limitConnections(server, limits);
  return server;
}

async function serve(dispatcher: Dispatcher, req: IncomingMessage, res: ServerResponse, gate?: HostedGate): Promise<void> {
  const overCap = refusalOf(req.socket);
  if (overCap) {
    res.setHeader('connection', 'close');
    req.resume();
    return refuse(res, overCap);
  }
  if (req.method === 'OPTIONS') { res.writeHead(204, CORS); res.end(); return; }
  if (req.method !== 'POST') return fail(res, 405, INVALID_REQUEST, `HTTP ${req.method} is not served: send JSON-RPC requests with POST`);
  const path = (req.url ?? '/').split('?')[0]!;
  if (!RPC_PATH.test(path)) return fail(res, 404, INVALID_REQUEST, `no JSON-RPC endpoint at ${path}: use / or /<API_KEY>`);
  const admitted = gate?.admit(path);
  if (admitted && 'status' in admitted) {
    req.resume();
    return refuse(res, admitted);
  }
  const type = req.headers['content-type'];
  if (type !== undefined && !/^application\/json(-rpc)?\s*(;|$)/i.test(type)) {
    return fail(res, 415, INVALID_REQUEST, `unsupported content-type ${type}: send application/json`);
  }
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) {
    req.resume();
    return fail(res, 413, INVALID_REQUEST, `request body of ${declared} bytes exceeds the limit of ${MAX_BODY_BYTES} bytes`);
  }
  const text = await readBody(req);
  if (text === undefined) return; // client went away
  if (text === TOO_LARGE) {
    fail(res, 413, INVALID_REQUEST, `request body exceeds the limit of ${MAX_BODY_BYTES} bytes`);
    req.destroy();
    return;
  }
  let body: unknown;
  try {
    body = parseJson(text);
  } catch (err) {
    return fail(res, 400, PARSE_ERROR, `parse error: ${(err as Error).message}`);
  }
  const refused = gate && admitted && gate.charge(admitted.key, Array.isArray(body) ? Math.max(body.length, 1) : 1);
  if (refused) return refuse(res, refused);
  // A client that closes the connection before its answer cancels the work still queued or running for it.
  const gone = new AbortController();
  const onClose = () => { if (!res.writableFinished) gone.abort(); };
  res.once('close', onClose);
  // A request alone in its body may have its answer streamed (docs/rpc-workers.md, "Streamed traces").
  const reply = await dispatcher.handle(body, { signal: gone.signal, streamable: !Array.isArray(body) });
  if (isStreamed(reply)) await sendStream(res, reply.id, reply.result);
  res.off('close', onClose);
  if (res.destroyed || isStreamed(reply)) return;
  if (reply === undefined) { res.writeHead(204, CORS); res.end(); return; }
  send(res, 200, reply);
}

const isStreamed = (reply: unknown): reply is JsonRpcResponse & { result: JsonStream } => (reply as JsonRpcResponse | undefined)?.result instanceof JsonStream;

/**
 * Writes a streamed result as it comes (chunked transfer encoding). Nothing sent can be taken back: a
 * stream that fails (its deadline, its size bound, the worker lost) is cut, which the client sees as
 * a connection closed before the end of the body, never as a complete reply.
 */
async function sendStream(res: ServerResponse, id: unknown, stream: JsonStream): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json', ...CORS });
  res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`);
  try {
    for await (const piece of stream.pieces()) res.write(piece, typeof piece === 'string' ? undefined : () => stream.written(piece.length));
    res.end('}');
  } catch (err) {
    log.warn(`a streamed answer was cut: ${(err as Error).message}`);
    res.destroy();
  }
}

const TOO_LARGE = Symbol('too large');

/**
 * The request body as text; TOO_LARGE once it passes the limit, undefined if the client went away.
 * (Events rather than `for await`: a stream's async iterator costs more than the rest of a small request's reading.)
 */
function readBody(req: IncomingMessage): Promise<string | typeof TOO_LARGE | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      req.off('data', onData);
      resolve(TOO_LARGE);
    };
    req.on('data', onData);
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', () => resolve(undefined));
    req.once('close', () => { if (!req.complete) resolve(undefined); });
  });
}

export function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * JSON-RPC over HTTP for the bench: `post`/`rpc`/`rpcBatch` (node:http, keep-alive agent) for
 * setup and writes, and `runLoad`, a closed-loop load generator on raw keep-alive sockets.
 *
 * Why raw sockets: on this 2-core machine the generator shares the CPU with the node. A node:http
 * client saturates near 20k requests/s against a server that does nothing, which is about what
 * the cheapest reads reach; this client reaches 40-60k/s there, so it stays out of the way.
 * No dependency either, so the root type-check needs nothing from bench/node_modules.
 */
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';

// One socket per worker is enough; a few spare for setup calls running beside the load.
const agent = new http.Agent({ keepAlive: true, maxSockets: 64, keepAliveMsecs: 10_000 });
const REQUEST_TIMEOUT_MS = 30_000;

export function post(url: string, body: string): Promise<string> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: u.hostname, port: u.port, path: u.pathname || '/', method: 'POST', agent,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`request timed out after ${REQUEST_TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export class RpcCallError extends Error {}

export async function rpc<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const json = JSON.parse(await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params })));
  if (json.error) throw new RpcCallError(`${method}: ${json.error.message}`);
  return json.result as T;
}

/** A JSON-RPC batch; results in request order, errors as Error values (not thrown). */
export async function rpcBatch(url: string, calls: readonly [string, unknown[]][]): Promise<unknown[]> {
  const body = JSON.stringify(calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })));
  const json = JSON.parse(await post(url, body));
  if (!Array.isArray(json)) throw new RpcCallError(`batch of ${calls.length} refused: ${json.error?.message ?? JSON.stringify(json).slice(0, 200)}`);
  const out: unknown[] = new Array(calls.length);
  for (const r of json) out[r.id] = r.error ? new RpcCallError(r.error.message) : r.result;
  return out;
}

export interface LoadResult {
  /** Successful requests finished inside the window. */
  readonly ok: number;
  readonly errors: number;
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly firstError?: string;
}

export interface LoadSpec {
  concurrency: number;
  seconds: number;
  /** The request body for the i-th request (bodies are usually precomputed and cycled). */
  body: (i: number) => string;
  /** Whether a response body is a success (e.g. a result, not an error envelope). */
  ok: (text: string) => boolean;
}

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : NaN;

/** One keep-alive HTTP/1.1 connection with one request in flight; parses just enough of a response. */
class Connection {
  readonly #socket: net.Socket;
  #buf: Buffer = Buffer.alloc(0);
  #pending: { resolve: (body: string) => void; reject: (err: Error) => void } | undefined;
  #timer: NodeJS.Timeout | undefined;
  alive = true;

  constructor(host: string, port: number) {
    this.#socket = net.connect({ host, port, noDelay: true });
    this.#socket.on('data', (chunk: Buffer) => {
      this.#buf = this.#buf.length ? Buffer.concat([this.#buf, chunk]) : chunk;
      this.#parse();
    });
    this.#socket.on('error', (err) => this.#fail(err));
    this.#socket.on('close', () => this.#fail(new Error('connection closed by the server')));
  }

  request(bytes: Buffer): Promise<string> {
    return new Promise((resolve, reject) => {
      this.#pending = { resolve, reject };
      this.#timer = setTimeout(() => this.#fail(new Error(`request timed out after ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
      this.#socket.write(bytes);
    });
  }

  close(): void {
    this.alive = false;
    this.#socket.destroy();
  }

  #settle(): { resolve: (body: string) => void; reject: (err: Error) => void } | undefined {
    clearTimeout(this.#timer);
    const p = this.#pending;
    this.#pending = undefined;
    return p;
  }

  #fail(err: Error): void {
    this.alive = false;
    this.#socket.destroy();
    this.#settle()?.reject(err);
  }

  #parse(): void {
    const headEnd = this.#buf.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.#buf.toString('latin1', 0, headEnd);
    const bodyStart = headEnd + 4;
    let body: string;
    let rest: number;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      rest = bodyStart + Number(length[1]);
      if (this.#buf.length < rest) return;
      body = this.#buf.toString('utf8', bodyStart, rest);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let at = bodyStart;
      for (;;) {
        const lineEnd = this.#buf.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(this.#buf.toString('latin1', at, lineEnd), 16);
        if (this.#buf.length < lineEnd + 2 + size + 2) return;
        if (size === 0) { rest = lineEnd + 4; break; }
        parts.push(this.#buf.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts).toString('utf8');
    } else {
      return this.#fail(new Error(`response without a length: ${head.split('\r\n')[0]}`));
    }
    this.#buf = this.#buf.subarray(rest);
    const closing = /\r\nconnection:\s*close/i.test(head);
    this.#settle()?.resolve(body);
    if (closing) this.close();
  }
}

/** Runs `spec.concurrency` closed-loop workers for `spec.seconds`; stops by itself. */
export async function runLoad(url: string, spec: LoadSpec): Promise<LoadResult> {
  const u = new URL(url);
  const port = Number(u.port || 80);
  const path = u.pathname || '/';
  const requests = new Map<string, Buffer>();
  const requestBytes = (body: string) => {
    let bytes = requests.get(body);
    if (!bytes) {
      bytes = Buffer.from(`POST ${path} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      if (requests.size < 1024) requests.set(body, bytes);
    }
    return bytes;
  };
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const start = performance.now();
  const end = start + spec.seconds * 1000;
  const worker = async () => {
    let conn: Connection | undefined;
    while (performance.now() < end) {
      if (!conn?.alive) conn = new Connection(u.hostname, port);
      const bytes = requestBytes(spec.body(next++));
      const t0 = performance.now();
      try {
        const text = await conn.request(bytes);
        const t1 = performance.now();
        if (t1 > end) break; // finished past the window: not counted
        if (spec.ok(text)) latencies.push(t1 - t0);
        else { errors++; firstError ??= text.slice(0, 300); }
      } catch (err) {
        errors++;
        firstError ??= (err as Error).message;
        if (errors > 1_000) await new Promise((r) => setTimeout(r, 10)); // a dead server: do not spin
      }
    }
    conn?.close();
  };
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  const sorted = Float64Array.from(latencies).sort();
  return {
    ok: latencies.length, errors, seconds: spec.seconds, perSecond: latencies.length / spec.seconds,
    p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), firstError,
  };
}

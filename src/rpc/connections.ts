/**
 * Connection limits of the RPC port (docs/hardening.md "Connection limits"; README "Limits"): how long
 * a client may take to send its headers and its whole request, how long an idle keep-alive connection
 * stays, and how many connections are served at once, in all and from one IP address. A connection past
 * a cap is answered (HTTP 503 or 429 with a JSON-RPC error, then closed) rather than dropped unanswered.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { LIMIT_EXCEEDED } from './errors.ts';
import type { Refusal } from './hosted.ts';

export interface ConnectionLimits {
  /** From the connection (or the previous request) to the end of the request's headers. */
  readonly headersTimeoutMs: number;
  /** From the first byte to the end of the body: a body trickling in is cut (HTTP 408). */
  readonly requestTimeoutMs: number;
  /** A keep-alive connection with no request in flight is closed after this. */
  readonly idleTimeoutMs: number;
  readonly maxConnections: number;
  /** Not applied to 127.0.0.1 and ::1: local clients, and a reverse proxy in front of the node, connect from them. */
  readonly maxConnectionsPerIp: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000, requestTimeoutMs: 20_000, idleTimeoutMs: 30_000, maxConnections: 1_000, maxConnectionsPerIp: 100,
};

/** How often Node checks the header and request deadlines: a request is cut at most this late. */
export const DEADLINE_CHECK_MS = 1_000;

/** Connections past a cap are answered, then closed; beyond twice the cap Node drops them unanswered. */
const HARD_CAP_FACTOR = 2;

const UNCAPPED_ADDRESSES = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Connections past a cap, with what they are answered (HTTP requests and WebSocket upgrades alike). */
const refused = new WeakMap<Socket, Refusal>();
export const refusalOf = (socket: Socket): Refusal | undefined => refused.get(socket);

/** Applies the limits to `server`: timeouts, and counts of the connections it serves. */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.idleTimeoutMs;
  server.maxConnections = limits.maxConnections * HARD_CAP_FACTOR;
  const perIp = new Map<string, number>();
  let served = 0;
  server.on('connection', (socket: Socket) => {
    const ip = socket.remoteAddress ?? '';
    const fromIp = perIp.get(ip) ?? 0;
    if (served >= limits.maxConnections) {
      refused.set(socket, { status: 503, code: LIMIT_EXCEEDED, message: `too many connections: this node serves ${limits.maxConnections} at once; retry later`, retryAfterSec: 1 });
      return;
    }
    if (fromIp >= limits.maxConnectionsPerIp && !UNCAPPED_ADDRESSES.has(ip)) {
      refused.set(socket, { status: 429, code: LIMIT_EXCEEDED, message: `too many connections from your address: at most ${limits.maxConnectionsPerIp} at once`, retryAfterSec: 1 });
      return;
    }
    served++;
    perIp.set(ip, fromIp + 1);
    socket.once('close', () => {
      served--;
      const left = perIp.get(ip)! - 1;
      if (left === 0) perIp.delete(ip);
      else perIp.set(ip, left);
    });
  });
}

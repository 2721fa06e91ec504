/**
 * JSON-RPC over WebSocket on the HTTP port (an upgrade at `/` or `/<API_KEY>`): every method of the
 * HTTP endpoint, plus eth_subscribe / eth_unsubscribe for `newHeads`, `logs` (same filter options as
 * eth_newFilter; logs of blocks a reorg drops come again with `removed: true`) and
 * `newPendingTransactions`, pushed as `eth_subscription` notifications.
 *
 * Limits: messages up to MAX_BODY_BYTES; at most MAX_SUBSCRIPTIONS per connection; a client that
 * lets more than MAX_BUFFERED_BYTES of notifications pile up unread is disconnected (close code
 * 1008), so a slow reader cannot grow the node's memory.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { randomId, type LiveEvent } from '../actors/liveEvents.ts';
import type { Hex } from '../chain/codec/bytes.ts';
import type { LiveLogSource } from '../chain/logs/liveLogs.ts';
import type { ChainView } from '../chain/reader.ts';
import { Dispatcher, errorResponse, type DispatchOptions, type JsonRpcId } from './dispatch.ts';
import { invalidParams, PARSE_ERROR, RpcError } from './errors.ts';
import { boundsOf, type LiveLogFilter } from '../chain/logs/liveLogs.ts';
import { liveLogFilter } from './filterParams.ts';
import { formatBlock, formatLog } from './format.ts';
import type { HostedGate } from './hosted.ts';
import { parseJson, replyJson } from './json.ts';
import { method, type Methods } from './method.ts';
import { text, type Param } from './params.ts';
import { MAX_BODY_BYTES, RPC_PATH } from './server.ts';
import { refusalOf } from './connections.ts';
import { applySwitches } from './method.ts';
import type { RpcSwitches } from './switches.ts';

export const MAX_SUBSCRIPTIONS = 100;
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

type Topic = { kind: 'newHeads' } | { kind: 'newPendingTransactions' } | { kind: 'logs'; filter: LiveLogFilter };

interface Subscription {
  readonly id: Hex;
  readonly topic: Topic;
  /** Notifications held back until the eth_subscribe reply is written; undefined once it is. */
  waiting?: unknown[];
}

interface Connection {
  readonly ws: WebSocket;
  readonly subscriptions: Map<Hex, Subscription>;
  /** The hosted-mode API key the connection was opened with. */
  readonly key?: string;
  /** Aborted when the connection closes: what still waits for it stops (a sync send's wait). */
  readonly gone: AbortController;
}

const anything: Param<unknown> = (raw) => raw;

export interface WsHubDeps extends DispatchOptions {
  readonly reader: ChainView;
  readonly logs: LiveLogSource;
  /** The switches `methods` was built with: eth_subscribe and eth_unsubscribe obey them too. */
  readonly switches: RpcSwitches;
  readonly gate?: HostedGate;
}

/** The WebSocket side of the RPC listener: connections, their subscriptions, and the notifications pushed to them. */
export class WsHub {
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  readonly #connections = new Set<Connection>();

  constructor(server: Server, private readonly methods: Methods, private readonly deps: WsHubDeps) {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#upgrade(req, socket, head));
  }

  #upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const path = (req.url ?? '/').split('?')[0]!;
    const refuse = (status: string) => { socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`); };
    const overCap = refusalOf(socket as Socket);
    if (overCap) return refuse(overCap.status === 503 ? '503 Service Unavailable' : '429 Too Many Requests');
    if (!RPC_PATH.test(path)) return refuse('404 Not Found');
    const admitted = this.deps.gate?.admit(path);
    if (admitted && 'status' in admitted) return refuse(admitted.status === 401 ? '401 Unauthorized' : '403 Forbidden');
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connect(ws, admitted?.key));
  }

  #connect(ws: WebSocket, key: string | undefined): void {
    const conn: Connection = { ws, subscriptions: new Map(), key, gone: new AbortController() };
    this.#connections.add(conn);
    ws.on('close', () => {
      this.#connections.delete(conn);
      conn.gone.abort();
    });
    ws.on('error', () => ws.terminate());
    ws.on('message', (data) => void this.#onMessage(conn, data.toString()));
  }

  async #onMessage(conn: Connection, text: string): Promise<void> {
    let body: unknown;
    try {
      body = parseJson(text);
    } catch (err) {
      return this.#send(conn, errorResponse(null, new RpcError(PARSE_ERROR, `parse error: ${(err as Error).message}`)));
    }
    if (this.deps.gate && conn.key !== undefined) {
      const refused = this.deps.gate.charge(conn.key, Array.isArray(body) ? Math.max(body.length, 1) : 1);
      if (refused) {
        const err = new RpcError(refused.code, refused.message);
        const ids = (Array.isArray(body) ? body : [body]).map((r) => ((r as { id?: JsonRpcId } | null)?.id ?? null));
        return this.#send(conn, Array.isArray(body) ? ids.map((id) => errorResponse(id, err)) : errorResponse(ids[0]!, err));
      }
    }
    const started: Subscription[] = [];
    const reply = await new Dispatcher({ ...this.methods, ...applySwitches(this.#subscriptionMethods(conn, started), this.deps.switches) }, this.deps)
      .handle(body, { signal: conn.gone.signal });
    if (reply !== undefined) this.#send(conn, reply);
    // A subscription's first notification never overtakes the reply that gave its id.
    for (const sub of started) {
      const waiting = sub.waiting ?? [];
      sub.waiting = undefined;
      for (const result of waiting) this.#notify(conn, sub, result);
    }
  }

  #subscriptionMethods(conn: Connection, started: Subscription[]): Methods {
    return {
      eth_subscribe: method([['subscription', text], ['options', anything]], ([kind, options]) => {
        const topic = parseTopic(kind, options);
        if (conn.subscriptions.size >= MAX_SUBSCRIPTIONS) {
          throw invalidParams(`too many subscriptions: a connection may hold ${MAX_SUBSCRIPTIONS}; eth_unsubscribe some first`);
        }
        const sub: Subscription = { id: randomId(), topic, waiting: [] };
        conn.subscriptions.set(sub.id, sub);
        started.push(sub);
        return sub.id;
      }),
      eth_unsubscribe: method([['subscriptionId', text]], ([id]) => conn.subscriptions.delete(id.toLowerCase() as Hex)),
    };
  }

  #send(conn: Connection, message: unknown): void {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    if (conn.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      conn.ws.close(1008, 'too slow: more than 16 MiB of messages waiting to be read');
      return;
    }
    conn.ws.send(replyJson(message), { binary: false });
  }

  #notify(conn: Connection, sub: Subscription, result: unknown): void {
    if (sub.waiting) sub.waiting.push(result);
    else this.#send(conn, { jsonrpc: '2.0', method: 'eth_subscription', params: { subscription: sub.id, result } });
  }

  /** Pushes what a live event means to every matching subscription. Called by the listener, one event at a time. */
  async publish(e: LiveEvent): Promise<void> {
    const subs = [...this.#connections].flatMap((conn) => [...conn.subscriptions.values()].map((sub) => ({ conn, sub })));
    if (subs.length === 0) return;
    if (e.type === 'pool.txAdded') {
      for (const { conn, sub } of subs) if (sub.topic.kind === 'newPendingTransactions') this.#notify(conn, sub, e.hash);
      return;
    }
    let heads: unknown[] | undefined;
    for (const { conn, sub } of subs) {
      const topic = sub.topic;
      if (topic.kind === 'newHeads') {
        heads ??= await Promise.all(e.added.map(async (block) => {
          const head: Record<string, unknown> = formatBlock(block, (await this.deps.reader.totalDifficulty(block.hash)) ?? 0n, false);
          delete head.transactions; // a head is the header: as other nodes send it
          delete head.uncles;
          return head;
        }));
        for (const head of heads) this.#notify(conn, sub, head);
      } else if (topic.kind === 'logs') {
        const changes = await this.deps.logs.changes(e, topic.filter.criteria, boundsOf(topic.filter.scope));
        for (const { log, removed } of changes) this.#notify(conn, sub, formatLog(log, removed));
      }
    }
  }

  /** Closes every connection (the HTTP server's close does not reach upgraded sockets). */
  close(): void {
    for (const conn of this.#connections) conn.ws.terminate();
    this.#wss.close();
  }
}

function parseTopic(kind: string, options: unknown): Topic {
  if (kind === 'logs') return { kind, filter: liveLogFilter(options ?? {}, '1 (filter)') };
  if (kind !== 'newHeads' && kind !== 'newPendingTransactions') {
    throw invalidParams(`invalid argument 0 (subscription): unknown subscription "${kind}"; this node offers newHeads, logs and newPendingTransactions`);
  }
  if (options !== undefined && options !== null && options !== false) {
    throw invalidParams(`invalid argument 1: ${kind} takes no options (only logs takes a filter)`);
  }
  return { kind };
}

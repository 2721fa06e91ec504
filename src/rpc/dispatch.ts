/**
 * JSON-RPC 2.0 envelope handling: single requests, batches (bounded), notifications, id echo,
 * and the error codes of JSON-RPC 2.0. Transport-free: the HTTP server hands it parsed JSON.
 */
import { INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, RpcError, toRpcError } from './errors.ts';
import type { CallContext, Methods } from './method.ts';
import { isRawJson } from './json.ts';

/** A request id; ids beyond 2^53 stay raw JSON text so they are echoed exactly. */
export type JsonRpcId = string | number | null | object;
export interface JsonRpcResponse {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result?: unknown;
  error?: { code: number; message: string; data?: string };
}

/** Batch limit: the reference's default when `max_batch_requests_size` is not configured (its shipped config says 50). */
export const MAX_BATCH = 100;

/** No method takes params nested deeper than this; deeper ones would only cost stack in parsers and in copies to the RPC workers. */
export const MAX_PARAMS_DEPTH = 32;

/** Whether `value` holds arrays or objects nested more than `limit` deep (iterative: any depth is measured safely). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

export const errorResponse = (id: JsonRpcId, err: RpcError): JsonRpcResponse => ({
  jsonrpc: '2.0', id, error: err.data === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, data: err.data },
});

/** Told of every method call: the method (`unknown` for a name not served), whether it answered an error, how long it took. */
export type CallObserver = (method: string, outcome: 'ok' | 'error', seconds: number) => void;

/** What a dispatcher is told beyond its methods. */
export interface DispatchOptions {
  /** Told of every method call. */
  readonly observe?: CallObserver;
  /** A promise every call waits for before it runs, when there is one: the block of a send already answered (src/rpc/inclusion.ts). */
  readonly settled?: () => Promise<void> | undefined;
}

export class Dispatcher {
  constructor(private readonly methods: Methods, private readonly opts: DispatchOptions = {}) {}

  /** Answers a parsed body; undefined when nothing is to be written (only notifications). */
  async handle(body: unknown, ctx: CallContext = {}): Promise<JsonRpcResponse | JsonRpcResponse[] | undefined> {
    if (Array.isArray(body)) {
      if (body.length === 0) return errorResponse(null, new RpcError(INVALID_REQUEST, 'invalid request: empty batch'));
      if (body.length > MAX_BATCH) {
        return errorResponse(null, new RpcError(INVALID_REQUEST, `Cannot dispatch batch requests. ${MAX_BATCH} is the max number of supported batch requests (got ${body.length})`));
      }
      const responses = await Promise.all(body.map((req) => this.handleOne(req, ctx)));
      const written = responses.filter((r): r is JsonRpcResponse => r !== undefined);
      return written.length ? written : undefined;
    }
    return this.handleOne(body, ctx);
  }

  private async handleOne(req: unknown, ctx: CallContext): Promise<JsonRpcResponse | undefined> {
    if (req === null || typeof req !== 'object' || Array.isArray(req)) {
      return errorResponse(null, new RpcError(INVALID_REQUEST, 'invalid request: expected a JSON-RPC request object'));
    }
    const r = req as Record<string, unknown>;
    const hasId = 'id' in r;
    const id = r.id;
    if (hasId && id !== null && typeof id !== 'string' && typeof id !== 'number' && !isRawJson(id)) {
      return errorResponse(null, new RpcError(INVALID_REQUEST, 'invalid request: id must be a string, a number or null'));
    }
    const replyId = (hasId ? id : null) as JsonRpcId;
    // Every request carries the version (docs/rpc-conformance.md "Envelope"), so a missing one is as malformed as a wrong one.
    if (r.jsonrpc !== '2.0') {
      const problem = r.jsonrpc === undefined ? 'the jsonrpc member is missing' : `jsonrpc is ${JSON.stringify(r.jsonrpc)}`;
      return errorResponse(replyId, new RpcError(INVALID_REQUEST, `invalid request: ${problem}; it must be "2.0"`));
    }
    if (typeof r.method !== 'string') return errorResponse(replyId, new RpcError(INVALID_REQUEST, 'invalid request: method must be a string'));
    // JSON-RPC 2.0: params are structured (an array or an object) or absent; anything else is a bad request.
    if (r.params !== undefined && (r.params === null || typeof r.params !== 'object')) {
      return errorResponse(replyId, new RpcError(INVALID_REQUEST, 'invalid request: params must be an array of positional parameters'));
    }
    if (r.params !== undefined && !Array.isArray(r.params)) {
      return errorResponse(replyId, new RpcError(INVALID_PARAMS, 'invalid params: params must be an array (positional parameters)'));
    }
    if (nestedDeeperThan(r.params, MAX_PARAMS_DEPTH)) {
      return errorResponse(replyId, new RpcError(INVALID_PARAMS, `invalid params: params are nested deeper than ${MAX_PARAMS_DEPTH} arrays or objects`));
    }
    const response = await this.call(r.method, (r.params as unknown[] | undefined) ?? [], replyId, ctx);
    // A request without an id is a notification: it runs, and nothing is written back.
    return hasId ? response : undefined;
  }

  private async call(name: string, params: unknown[], id: JsonRpcId, ctx: CallContext): Promise<JsonRpcResponse> {
    const def = Object.hasOwn(this.methods, name) ? this.methods[name] : undefined;
    if (!def) {
      this.opts.observe?.('unknown', 'error', 0);
      return errorResponse(id, new RpcError(METHOD_NOT_FOUND, `method not found: ${name}`));
    }
    const held = this.opts.settled?.();
    if (held) await held;
    const started = this.opts.observe && performance.now();
    try {
      const response: JsonRpcResponse = { jsonrpc: '2.0', id, result: (await def.call(params, ctx)) ?? null };
      if (started !== undefined) this.opts.observe!(name, 'ok', (performance.now() - started) / 1000);
      return response;
    } catch (err) {
      if (started !== undefined) this.opts.observe!(name, 'error', (performance.now() - started) / 1000);
      return errorResponse(id, toRpcError(err));
    }
  }
}

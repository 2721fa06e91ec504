/**
 * Hosted mode (README "Hosted mode"): requests reach the node only at `/<API_KEY>` with a
 * known key, and each key has a request-rate allowance. Keys are secrets: no message, error or log
 * line here contains one.
 */
import { INVALID_REQUEST, LIMIT_EXCEEDED } from './errors.ts';
import type { HostedConfig } from './options.ts';

/** A request turned away before it is dispatched: HTTP status and the JSON-RPC error of the body. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly retryAfterSec?: number;
}

/** Token buckets per key: a full minute's allowance at most, refilled continuously. */
export class HostedGate {
  readonly #buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(private readonly config: HostedConfig, private readonly nowMs: () => number = Date.now) {}

  /** The key a request path names, or why the request is refused (401 no key, 403 unknown key). */
  admit(path: string): { key: string } | Refusal {
    const key = path.replace(/^\/+|\/+$/g, '');
    if (!key) return { status: 401, code: INVALID_REQUEST, message: 'missing API key: this hosted endpoint serves requests at /<API_KEY> only' };
    if (!this.config.apiKeys.has(key)) return { status: 403, code: INVALID_REQUEST, message: 'unknown API key' };
    return { key };
  }

  /** Spends `requests` of the key's allowance, or refuses them all (HTTP 429) when it does not cover them. */
  charge(key: string, requests: number): Refusal | undefined {
    const perMinute = this.config.requestsPerMinute;
    const now = this.nowMs();
    const bucket = this.#buckets.get(key) ?? { tokens: perMinute, atMs: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.atMs) * perMinute) / 60_000);
    bucket.atMs = now;
    this.#buckets.set(key, bucket);
    if (bucket.tokens >= requests) {
      bucket.tokens -= requests;
      return undefined;
    }
    if (requests > perMinute) {
      return { status: 429, code: LIMIT_EXCEEDED, message: `rate limit exceeded: a batch of ${requests} requests is more than this API key may send in a minute (${perMinute})` };
    }
    const retryAfterSec = Math.ceil(((requests - bucket.tokens) * 60) / perMinute);
    return {
      status: 429, code: LIMIT_EXCEEDED, retryAfterSec,
      message: `rate limit exceeded: this API key may send ${perMinute} requests per minute (a batch counts each request); retry in ${retryAfterSec} s`,
    };
  }
}

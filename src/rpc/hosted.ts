/**
 * Hosted mode (spec parts 1.6–1.8 and 5): requests reach the node only at `/<API_KEY>` with a
 * known key, and each key has a request-rate allowance. Keys are secrets: no message, error or log
 * line here contains one.
 */
import { readFileSync } from 'node:fs';
import { INVALID_REQUEST, LIMIT_EXCEEDED } from './errors.ts';

export interface HostedConfig {
  readonly apiKeys: ReadonlySet<string>;
  /** JSON-RPC requests (a batch counts each of its requests) per minute and key. */
  readonly requestsPerMinute: number;
}

/** A request turned away before it is dispatched: HTTP status and the JSON-RPC error of the body. */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly retryAfterSec?: number;
}

export const DEFAULT_REQUESTS_PER_MINUTE = 600;
const KEY_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;

/** Reads an API key file: one key per line (16–128 letters, digits, `_` or `-`), `#` comments and blank lines ignored. */
export function loadApiKeys(path: string): Set<string> {
  const keys = new Set<string>();
  readFileSync(path, 'utf8').split(/\r?\n/).forEach((line, i) => {
    const key = line.replace(/#.*/, '').trim();
    if (!key) return;
    if (!KEY_FORMAT.test(key)) throw new Error(`API key file line ${i + 1}: not a valid key (16 to 128 letters, digits, _ or -)`);
    keys.add(key);
  });
  if (keys.size === 0) throw new Error('the API key file holds no keys');
  return keys;
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

/**
 * The RPC layer's options and their defaults: the listen address (--rpc-host, --rpc-port), hosted mode (--hosted, --api-keys, --rate-limit) with
 * its key file, and the error code of reverts (--rpc-revert-code). Module switches: switches.ts;
 * worker threads: workers/options.ts.
 */
import { readFileSync } from 'node:fs';

export const DEFAULT_RPC_LISTEN = Object.freeze({ host: '127.0.0.1', port: 4444 });

/** -32015: the interface's revert error (the default); 3: geth's `execution reverted: <reason>` (src/rpc/revertCode.ts). */
export type RevertCode = -32015 | 3;

export interface HostedConfig {
  readonly apiKeys: ReadonlySet<string>;
  /** JSON-RPC requests (a batch counts each of its requests) per minute and key. */
  readonly requestsPerMinute: number;
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

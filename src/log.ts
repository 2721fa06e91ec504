/**
 * The node's logs, through pino: one root logger configured at start (`--log-level`, `--log-format`),
 * and a child per actor or part (`logger('sync')` adds `"actor":"sync"`). Secrets never reach a log:
 * RPC requests are logged by method, never with their parameters, and fields that could hold a key,
 * passphrase or hosted API key are redacted should one ever be passed (docs/operations.md "Logs").
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = (typeof LOG_FORMATS)[number];

const REDACT = ['privateKey', 'key', 'apiKey', 'passphrase', 'password', 'params', '*.privateKey', '*.passphrase', '*.apiKey'];

let root: Logger = build('info', process.stdout.isTTY ? 'pretty' : 'json');

function build(level: LogLevel, format: LogFormat): Logger {
  const options = { level, base: undefined, redact: { paths: REDACT, censor: '[redacted]' } };
  // pino-pretty as a synchronous stream, not a transport: a transport loads it by name in a worker thread, which the bundle cannot.
  return format === 'pretty' ? pino(options, pretty({ sync: true, ignore: 'actor', messageFormat: '[{actor}] {msg}' })) : pino(options, pino.destination({ sync: true }));
}

export function configureLogging(level: LogLevel, format: LogFormat = process.stdout.isTTY ? 'pretty' : 'json'): void {
  root = build(level, format);
}

/**
 * A child logger for one actor or part. It follows a later `configureLogging`: the child is made
 * from the root at each call, so modules may take one when they load.
 */
export function logger(actor: string): Logger {
  const cache = new WeakMap<Logger, Logger>();
  const current = () => {
    let child = cache.get(root);
    if (!child) cache.set(root, (child = root.child({ actor })));
    return child;
  };
  return new Proxy({} as Logger, {
    get: (_, prop) => {
      const child = current();
      const value = Reflect.get(child, prop);
      return typeof value === 'function' ? value.bind(child) : value;
    },
  });
}

/** Whether stack traces belong in the output (`--log-level debug` or trace). */
export const logsDebug = (): boolean => root.isLevelEnabled('debug');

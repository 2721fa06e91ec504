/**
 * Every configuration option, once: its zod schema (what it accepts), its flag argument and help
 * text. The config file, `MMNODE_<OPTION>` variables, the flags, `--help` and `--print-config` are
 * all derived from this table (docs/operations.md "Configuration"). Values arrive as strings from
 * flags and the environment, or as TOML values from the file: each schema takes both.
 */
import { z } from 'zod';
import { DEFAULT_FILTER_OPTIONS } from '../actors/filterSupervisor/options.ts';
import { DEFAULT_PEER_MANAGER_OPTIONS } from '../actors/peerManager/options.ts';
import { DEFAULT_TXPOOL_OPTIONS } from '../actors/txpool/options.ts';
import { LOG_FORMATS, LOG_LEVELS } from '../log.ts';
import { MAX_TIMER_MS } from '../machines/clock.ts';
import { DEFAULT_P2P_OPTIONS } from '../p2p/options.ts';
import { DEFAULT_METRICS_HOST } from '../monitor/options.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, DEFAULT_RPC_LISTEN } from '../rpc/options.ts';
import { DEFAULT_GAS_CAP, DEFAULT_RPC_WORKER_OPTIONS } from '../rpc/workers/options.ts';

interface Option {
  readonly schema: z.ZodTypeAny;
  /** What the option accepts, for error messages ("must be …"). */
  readonly accepts: string;
  /** The flag's argument in --help; absent for a switch (a boolean flag). */
  readonly arg?: string;
  readonly help: string;
  /** Only on the command line: not a setting of the node. */
  readonly flagOnly?: boolean;
}

const whole = (min: number, max: number) =>
  z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).pipe(z.number().int().min(min).max(max));
const switchOn = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);
/** A list: a TOML array, or a comma-separated string from a flag or the environment. */
const list = z.union([
  z.array(z.string()),
  z.string().transform((v) => v.split(',').map((x) => x.trim()).filter(Boolean)),
]);
const choice = <T extends [string, ...string[]]>(values: T) => z.enum(values);

const port = (what: string, dflt: number): Option => ({
  schema: whole(0, 65535).default(dflt), accepts: 'a port number from 0 to 65535', arg: '<port>', help: `${what} (default ${dflt}; 0 picks a free one)`,
});
const positive = (arg: string, help: string): Option => ({
  schema: whole(1, 999_999_999).optional(), accepts: 'a positive whole number', arg, help,
});
const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);
/** Seconds a timer waits (a pool transaction's or a filter's life). */
const timerSeconds = (help: string): Option => ({
  schema: whole(1, MAX_TIMER_SECONDS).optional(), accepts: `a whole number of seconds from 1 to ${MAX_TIMER_SECONDS} (about 24.8 days)`, arg: '<s>', help,
});

export const OPTIONS = {
  config: { schema: z.string().optional(), accepts: 'a file path', arg: '<file>', help: 'read options from this TOML file (keys named as the flags: rpc-port = 4444)', flagOnly: true },
  network: { schema: choice(['regtest', 'testnet', 'mainnet']).default('regtest'), accepts: 'regtest, testnet or mainnet', arg: '<regtest|testnet|mainnet>', help: 'chain to run (default regtest: chain id 33)' },
  'data-dir': { schema: z.string().min(1).optional(), accepts: 'a directory path', arg: '<path>', help: 'LevelDB data directory (default ./data/<network>)' },
  'rpc-host': { schema: z.string().min(1).default(DEFAULT_RPC_LISTEN.host), accepts: 'a host name or address', arg: '<host>', help: `JSON-RPC listen address (default ${DEFAULT_RPC_LISTEN.host})` },
  'rpc-port': port('JSON-RPC port', DEFAULT_RPC_LISTEN.port),
  'block-time': { schema: whole(10, 86_400_000).optional(), accepts: 'a whole number of milliseconds, at least 10', arg: '<ms>', help: 'mine a block every <ms> instead of on each transaction' },
  'no-mining': { schema: switchOn.default(false), accepts: 'true or false', help: 'do not mine (external miners can still submit work)' },
  miner: { schema: choice(['builtin', 'external']).default('builtin'), accepts: 'builtin or external', arg: '<builtin|external>', help: 'builtin (default) seals blocks itself; external leaves it to miners using mnr_* or eth_getWork (same as --no-mining)' },
  coinbase: { schema: z.string().regex(/^0x[0-9a-fA-F]{40}$/).optional(), accepts: 'a 20-byte hex address (0x and 40 hex digits)', arg: '<address>', help: 'address paid the block fees' },
  'min-gas-price': { schema: z.union([z.number().int().min(0).transform(String), z.string().regex(/^\d+$/)]).default('0'), accepts: 'a whole number of wei', arg: '<wei>', help: 'minimum gas price blocks move toward (default 0)' },
  quiet: { schema: switchOn.default(false), accepts: 'true or false', help: 'do not print the development accounts' },
  'p2p-host': { schema: z.string().ip().default(DEFAULT_P2P_OPTIONS.host), accepts: 'an IP address (0.0.0.0 for every interface)', arg: '<ip>', help: `peer-to-peer listen address (default ${DEFAULT_P2P_OPTIONS.host}; 0.0.0.0 for every interface)` },
  'p2p-port': port('peer-to-peer TCP port', DEFAULT_P2P_OPTIONS.port),
  'p2p-announce': { schema: list.default([]), accepts: 'multiaddrs such as /ip4/203.0.113.5/tcp/5050, comma-separated', arg: '<multiaddr,...>', help: 'addresses to advertise instead, e.g. /ip4/203.0.113.5/tcp/5050 or /dns4/node.example.org/tcp/5050' },
  bootnodes: { schema: list.default([]), accepts: 'multiaddrs ending in /p2p/<peer id>, comma-separated', arg: '<multiaddr,...>', help: 'peers to join, e.g. /ip4/127.0.0.1/tcp/5050/p2p/12D3KooW... or /dns4/<name>/tcp/5050/p2p/12D3KooW...' },
  'min-peers': positive('<n>', `dial remembered and discovered peers while below <n> (default ${DEFAULT_PEER_MANAGER_OPTIONS.minPeers}, at most --max-peers)`),
  'max-peers': { schema: whole(1, 100_000).default(DEFAULT_P2P_OPTIONS.maxPeers), accepts: 'a positive whole number', arg: '<n>', help: `most peer connections (default ${DEFAULT_P2P_OPTIONS.maxPeers})` },
  'rpc-modules': { schema: list.optional(), accepts: 'module names, comma-separated', arg: '<m1,m2,...>', help: 'exactly these RPC modules on (default: all on regtest; on testnet and mainnet all but personal, evm, debug, trace, sco and mnr; hosted: eth without eth_sign, eth_sendTransaction and eth_sendTransactionSync, net, web3, rpc)' },
  'rpc-enable-methods': { schema: list.optional(), accepts: 'method names, comma-separated', arg: '<a,b,...>', help: 'switch single methods on (only them, when their module is off)' },
  'rpc-disable-methods': { schema: list.optional(), accepts: 'method names, comma-separated', arg: '<a,b,...>', help: 'switch single methods off' },
  'rpc-config': { schema: z.string().optional(), accepts: 'a file path', arg: '<file>', help: 'JSON switches, applied before the three options above: {"modules": {"debug": {"enabled": true, "methods": {"disabled": [...]}}}}' },
  hosted: { schema: switchOn.default(false), accepts: 'true or false', help: 'hosted endpoint: serve only /<API_KEY>, hold no keys, only the public modules unless named, never personal (needs --api-keys)' },
  'api-keys': { schema: z.string().optional(), accepts: 'a file path', arg: '<file>', help: 'API keys for --hosted, one per line (16-128 of A-Z a-z 0-9 _ -)' },
  'rate-limit': positive('<n>', `requests per minute per API key in hosted mode (default ${DEFAULT_REQUESTS_PER_MINUTE})`),
  'txpool-size': positive('<n>', `transactions the pool holds before evicting the cheapest (default ${DEFAULT_TXPOOL_OPTIONS.maxTxs})`),
  'txpool-account-slots': positive('<n>', `how far past its account nonce a sender's transactions may wait (default ${DEFAULT_TXPOOL_OPTIONS.accountSlots})`),
  'tx-expiry-blocks': positive('<n>', `drop a pool transaction after more than <n> blocks (default ${DEFAULT_TXPOOL_OPTIONS.maxAgeBlocks})`),
  'tx-expiry-seconds': timerSeconds(`drop a pool transaction after <s> seconds (default ${DEFAULT_TXPOOL_OPTIONS.maxAgeMs / 1000})`),
  'light-kdf': { schema: switchOn.default(false), accepts: 'true or false', help: 'encrypt new key files with light scrypt parameters (fast, for development)' },
  'filter-timeout': timerSeconds(`remove a polling filter not polled for <s> seconds (default ${DEFAULT_FILTER_OPTIONS.idleTimeoutMs / 1000})`),
  'rpc-workers': positive('<n>', `threads running eth_call, eth_estimateGas, debug_trace* and trace_* (default: the cores but one, at least one: ${DEFAULT_RPC_WORKER_OPTIONS.size} here)`),
  'rpc-warm-workers': {
    schema: whole(0, 999).optional(), accepts: 'a whole number, at most --rpc-workers', arg: '<n>',
    help: 'of those threads, how many run from the start and never stop for idleness (default 1 when mining on each transaction, outside --hosted; otherwise 0: started on demand, stopped after 30 s idle)',
  },
  'rpc-main-thread-calls': {
    schema: switchOn.optional(), accepts: 'true or false', arg: '<true|false>',
    help: 'run eth_call and eth_estimateGas at the head on the main thread while the workers are idle; one still running after 5 ms is stopped and handed to a worker (default true; false under --hosted)',
  },
  'rpc-evm-timeout': positive('<ms>', `deadline of one such request, waiting included (default ${DEFAULT_RPC_WORKER_OPTIONS.timeoutMs})`),
  'rpc-revert-code': {
    schema: z.union([z.literal(-32015), z.literal(3), z.enum(['-32015', '3']).transform(Number)]).default(-32015),
    accepts: '-32015 or 3', arg: '<-32015|3>',
    help: "error code of reverts in eth_call and eth_estimateGas (default -32015; 3 answers 'execution reverted: <reason>', which viem decodes; write --rpc-revert-code=-32015)",
  },
  'client-version': {
    schema: z.string().regex(/^[\x20-\x7e]{1,200}$/).optional(), accepts: '1 to 200 printable ASCII characters', arg: '<text>',
    help: "what web3_clientVersion answers (default mmnode/<version>/<platform>/<node version>); Hardhat's network helpers run only where it starts with HardhatNetwork, anvil or zksync",
  },
  'rpc-gas-cap': {
    schema: z.union([z.number().int().positive().transform(String), z.string().regex(/^[1-9]\d{0,18}$/)]).optional(),
    accepts: 'a positive whole amount of gas', arg: '<gas>', help: `most gas one eth_call, eth_estimateGas or debug_traceCall may use (default ${DEFAULT_GAS_CAP})`,
  },
  'metrics-port': { schema: whole(0, 65535).optional(), accepts: 'a port number from 0 to 65535', arg: '<port>', help: 'serve Prometheus metrics at /metrics and the status page at / on this port (default off)' },
  'metrics-host': { schema: z.string().min(1).default(DEFAULT_METRICS_HOST), accepts: 'a host name or address', arg: '<host>', help: `listen address of --metrics-port (default ${DEFAULT_METRICS_HOST})` },
  'log-level': { schema: choice([...LOG_LEVELS]).default('info'), accepts: LOG_LEVELS.join(', '), arg: `<${LOG_LEVELS.join('|')}>`, help: 'least severe log lines written (default info; debug adds every RPC request and stack traces)' },
  'log-format': { schema: choice([...LOG_FORMATS]).optional(), accepts: LOG_FORMATS.join(' or '), arg: '<json|pretty>', help: 'one JSON object per line, or coloured text (default pretty on a terminal, json otherwise)' },
  'print-config': { schema: switchOn.default(false), accepts: 'true or false', help: 'print the effective configuration as TOML and exit', flagOnly: true },
  help: { schema: switchOn.default(false), accepts: 'true or false', help: 'this text', flagOnly: true },
} satisfies Record<string, Option>;

export type OptionName = keyof typeof OPTIONS;
const options: Record<string, Option> = OPTIONS;

/** The one schema: every option, nothing else. */
export const optionsSchema = z.object(Object.fromEntries(Object.entries(options).map(([k, o]) => [k, o.schema]))).strict();
export type Options = { [K in OptionName]: z.output<(typeof OPTIONS)[K]['schema']> };

export const isSwitch = (name: string): boolean => options[name]?.arg === undefined;
export const acceptsOf = (name: string): string | undefined => options[name]?.accepts;
export const isFlagOnly = (name: string): boolean => options[name]?.flagOnly === true;

export const USAGE = [
  'Usage: npm start -- [options]',
  '',
  'Every option can also be set in the --config file (rpc-port = 4444) or as MMNODE_<OPTION> (MMNODE_RPC_PORT=4444); flags win.',
  '',
  ...Object.entries(options).map(([name, o]) => `  ${`--${name}${o.arg ? ` ${o.arg}` : ''}`.padEnd(38)} ${o.help}`),
].join('\n');

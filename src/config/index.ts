/** Node configuration: the options (src/config/options.ts) from file, environment and flags, validated and resolved into a NodeConfig. */
import { readFileSync } from 'node:fs';
import { stringify as toToml } from 'smol-toml';
import { fromHex } from '../chain/codec/bytes.ts';
import { NETWORKS, type NetworkName } from '../chain/execution/networks.ts';
import type { MiningMode } from '../actors/miner/options.ts';
import { DEFAULT_PEER_MANAGER_OPTIONS } from '../actors/peerManager/options.ts';
import type { TxPoolOptions } from '../actors/txpool/options.ts';
import { parseAnnounceAddress, parsePeerAddress } from '../p2p/multiaddrs.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, loadApiKeys, type HostedConfig, type RevertCode } from '../rpc/options.ts';
import { resolveSwitches, type RpcSwitches } from '../rpc/switches.ts';
import { DEFAULT_RPC_WORKER_OPTIONS } from '../rpc/workers/options.ts';
import { ConfigError, ConfigExit } from './error.ts';
import { acceptsOf, isFlagOnly, optionsSchema, USAGE, type Options } from './options.ts';
import { envName, fromEnv, fromFile, fromFlags, type RawOptions } from './sources.ts';
import type { LogFormat, LogLevel } from '../log.ts';

export { ConfigError, ConfigExit, USAGE };

export interface NodeConfig {
  network: NetworkName;
  dataDir: string;
  rpcHost: string;
  rpcPort: number;
  mining: MiningMode;
  blockTimeMs: number;
  coinbase: Uint8Array;
  minGasPrice: bigint;
  /** Print the development accounts and their keys at start. */
  quiet: boolean;
  p2p: {
    host: string;
    /** 0 picks a free port. */
    port: number;
    /** Addresses advertised instead of the listen address (docs/network.md "Addresses"). */
    announce: string[];
    /** Multiaddrs of peers to join, each ending in /p2p/<peer id>. */
    bootnodes: string[];
    /** Below this many peers the node dials remembered and discovered ones. */
    minPeers: number;
    maxPeers: number;
    /** First ban length after an invalid block or message (docs/network.md "Scoring and bans"). */
    punishmentMs: number;
  };
  /** RPC module and method switches; undefined: the network's defaults (src/rpc/switches.ts). */
  rpcModules?: RpcSwitches;
  /** Hosted mode: only `/<API_KEY>` is served, per-key rate limits, and the node holds no keys. */
  hosted?: HostedConfig;
  /** Pool limits and expiry (src/actors/txpool/rules.ts); unset fields keep the defaults. */
  txpool?: Partial<TxPoolOptions>;
  /** Encrypt key files with geth's light scrypt parameters (fast, weaker) instead of the standard ones. */
  lightKdf?: boolean;
  /** A polling filter not polled for this long is removed; undefined: 5 minutes. */
  filterTimeoutMs?: number;
  /** RPC worker threads, request deadline and gas cap (src/rpc/workers/pool.ts); unset fields keep the defaults. */
  rpcWorkers?: number;
  /** RPC workers kept running from the start (docs/rpc-workers.md, "Pool"); undefined: none. */
  rpcWarmWorkers?: number;
  /** Calls at the head run on the main thread while the workers are idle (src/rpc/mainThreadCalls.ts); undefined: outside --hosted. */
  rpcMainThreadCalls?: boolean;
  rpcEvmTimeoutMs?: number;
  rpcGasCap?: bigint;
  /** Error code of reverts in eth_call / eth_estimateGas: -32015 (the reference node's, default) or 3 (geth's, which viem decodes; docs/rpc-compatibility.md "Revert errors"). */
  rpcRevertCode?: RevertCode;
  /** What web3_clientVersion answers (docs/rpc-compatibility.md "Client version"); undefined: the node's own. */
  clientVersion?: string;
  /** The metrics and status page server (src/monitor); undefined: off. */
  metrics?: { host: string; port: number };
  /** Process-wide: main.ts configures src/log.ts with it before starting the node. */
  log?: { level: LogLevel; format?: LogFormat };
}

/**
 * The configuration from, in rising precedence, the TOML file named by --config (or MMNODE_CONFIG),
 * `MMNODE_<OPTION>` variables in `env`, and `argv`. Throws ConfigError naming the option and what it
 * accepts; ConfigExit carrying the text for --help and --print-config.
 */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv = {}): NodeConfig {
  const flags = fromFlags(argv);
  if (flags.help) throw new ConfigExit(USAGE);
  const configFile = (flags.config ?? env.MMNODE_CONFIG) as string | undefined;
  const file = configFile === undefined ? {} : fromFile(configFile);
  const vars = fromEnv(env);
  const origin = (name: string) => name in flags ? `--${name}` : name in vars ? envName(name) : `${name} in ${configFile}`;
  const raw: RawOptions = { ...file, ...vars, ...flags };
  const parsed = optionsSchema.safeParse(raw);
  if (!parsed.success) {
    const name = String(parsed.error.issues[0]!.path[0] ?? '');
    throw new ConfigError(`${origin(name)} must be ${acceptsOf(name) ?? 'valid'}, not ${JSON.stringify(raw[name])}`);
  }
  const o = parsed.data as Options;
  const config = resolve(o, origin);
  if (o['print-config']) throw new ConfigExit(printable({ ...o, 'data-dir': config.dataDir }));
  return config;
}

/** The options as a TOML file that gives this same configuration. */
function printable(o: Options): string {
  const set = Object.entries(o).filter(([name, v]) => v !== undefined && !isFlagOnly(name));
  return toToml(Object.fromEntries(set));
}

/** Checks across options and into the files they name; builds the NodeConfig. */
function resolve(o: Options, origin: (name: string) => string): NodeConfig {
  const network = o.network as NetworkName;
  for (const b of o.bootnodes) orConfigError(origin('bootnodes'), () => parsePeerAddress(b));
  for (const a of o['p2p-announce']) orConfigError(origin('p2p-announce'), () => parseAnnounceAddress(a));
  const rpcConfig = o['rpc-config'];
  const switchFile = rpcConfig === undefined ? undefined : orConfigError(origin('rpc-config'), () => JSON.parse(readFileSync(rpcConfig, 'utf8')));
  const rpcModules = orConfigError('RPC module switches', () => resolveSwitches(network, {
    file: switchFile, modules: o['rpc-modules'], enableMethods: o['rpc-enable-methods'], disableMethods: o['rpc-disable-methods'],
  }, o.hosted));
  if (o.hosted !== (o['api-keys'] !== undefined)) throw new ConfigError('--hosted and --api-keys <file> go together');
  if (o['rate-limit'] !== undefined && !o.hosted) throw new ConfigError(`${origin('rate-limit')} must be a positive whole number of requests per minute, with --hosted`);
  if (o.hosted && turnsOnPersonal(o, switchFile)) {
    throw new ConfigError('--hosted holds no keys, so it cannot serve the personal module: take personal out of --rpc-modules, --rpc-enable-methods or --rpc-config');
  }
  const apiKeys = o['api-keys'];
  const hosted = apiKeys === undefined ? undefined : {
    apiKeys: orConfigError(origin('api-keys'), () => loadApiKeys(apiKeys)),
    requestsPerMinute: o['rate-limit'] ?? DEFAULT_REQUESTS_PER_MINUTE,
  };
  const blockTimeMs = o['block-time'] ?? 0;
  const mining = o['no-mining'] || o.miner === 'external' ? 'off' : blockTimeMs > 0 ? 'interval' : 'auto';
  const workers = o['rpc-workers'] ?? DEFAULT_RPC_WORKER_OPTIONS.size;
  // A development node (mining on each transaction) keeps its worker: a test run's first call does not wait for one to start.
  const warmWorkers = o['rpc-warm-workers'] ?? (mining === 'auto' && !o.hosted ? 1 : 0);
  if (warmWorkers > workers) throw new ConfigError(`${origin('rpc-warm-workers')} must be at most --rpc-workers (${workers}), not ${warmWorkers}`);
  const expiryBlocks = o['tx-expiry-blocks'];
  const expirySeconds = o['tx-expiry-seconds'];
  const filterTimeout = o['filter-timeout'];
  const metricsPort = o['metrics-port'];
  return {
    network,
    dataDir: o['data-dir'] ?? `./data/${network}`,
    rpcHost: o['rpc-host'],
    rpcPort: o['rpc-port'],
    mining,
    blockTimeMs,
    coinbase: o.coinbase ? fromHex(o.coinbase) : NETWORKS[network].defaultCoinbase,
    minGasPrice: BigInt(o['min-gas-price']),
    quiet: o.quiet,
    p2p: {
      host: o['p2p-host'], port: o['p2p-port'], announce: o['p2p-announce'], bootnodes: o.bootnodes,
      minPeers: Math.min(o['min-peers'] ?? DEFAULT_PEER_MANAGER_OPTIONS.minPeers, o['max-peers']), maxPeers: o['max-peers'],
      punishmentMs: DEFAULT_PEER_MANAGER_OPTIONS.punishmentMs,
    },
    rpcModules,
    hosted,
    txpool: definedOnly({
      maxTxs: o['txpool-size'],
      accountSlots: o['txpool-account-slots'],
      maxAgeBlocks: expiryBlocks === undefined ? undefined : BigInt(expiryBlocks),
      maxAgeMs: expirySeconds === undefined ? undefined : expirySeconds * 1000,
    }),
    lightKdf: o['light-kdf'],
    filterTimeoutMs: filterTimeout === undefined ? undefined : filterTimeout * 1000,
    rpcWorkers: o['rpc-workers'],
    rpcWarmWorkers: warmWorkers,
    rpcMainThreadCalls: o['rpc-main-thread-calls'],
    rpcEvmTimeoutMs: o['rpc-evm-timeout'],
    rpcGasCap: o['rpc-gas-cap'] === undefined ? undefined : BigInt(o['rpc-gas-cap']),
    rpcRevertCode: o['rpc-revert-code'] as RevertCode,
    clientVersion: o['client-version'],
    metrics: metricsPort === undefined ? undefined : { host: o['metrics-host'], port: metricsPort },
    log: { level: o['log-level'], format: o['log-format'] },
  };
}

/** Whether the operator asked for personal_* methods (on regtest they are on by default, and hosted mode answers them -32604). */
function turnsOnPersonal(o: Options, switchFile: unknown): boolean {
  const inFile = (switchFile as { modules?: { personal?: { enabled?: unknown } } } | undefined)?.modules?.personal?.enabled === true;
  return inFile || (o['rpc-modules'] ?? []).includes('personal') || (o['rpc-enable-methods'] ?? []).some((m) => m.startsWith('personal_'));
}

const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * V8 flags the node process runs with (`npm start` passes them; so do the testnet launcher, the tests
 * and the benchmarks). A small young generation (8 MB semi-spaces; V8 lets them grow to 16 MB or
 * more) keeps the resident set near the live heap: about 30 MB less at idle and under read load. Each
 * halving takes about 10 MB off the read load's peak, but block building promotes more short-lived
 * objects: at 4 MB native transfers were mined 4 to 8 % slower, at 2 MB ERC-20 transfers about 20 %
 * slower than at 4 MB (alternating rounds of bench/run.ts's workloads). A heap allowed to grow 40 % past
 * what the last full collection kept (V8 lets it double, or more) takes another 20 to 40 MB off the peak
 * under load, for more frequent but short full collections of a live heap of about 40 MB (at 30 %,
 * 4 MB less at the read load's peak but native transfers mined about 4 % slower; at 50 %, 7 MB more). One V8
 * helper thread (Node's default is four) for concurrent marking and compilation: the node's own work
 * is one JavaScript thread, and four helpers per process contend with it, with LevelDB's threads and
 * with the clients and other nodes on the same machine (a local testnet runs several); on 2 cores this
 * mines about 20 % more transfers per second, with no change to reads or sync. Young-generation
 * collections also during a full collection's marking (V8 13 by default runs none until marking ends, so
 * at the 400+ MB/s eth_call allocates, the old space took in 30 to 40 MB of short-lived objects per
 * marking and the freed pages stayed pooled): peak RSS under the read load 125 to 130 MB instead of 165
 * (measured with 4 MB semi-spaces and 30 % growth; with these flags it is about 140 MB). Worker threads
 * get a smaller young generation of their own (src/threads.ts).
 */
export const NODE_RUNTIME_FLAGS = [
  '--max-semi-space-size=8', '--heap-growing-percent=40', '--v8-pool-size=1', '--no-separate-gc-phases',
] as const;

/**
 * Where a node process keeps the code V8 compiled from its bundles (Node's compile cache, relative to
 * the project root every launcher starts it in; under dist/, beside the bundles it caches): the next
 * start reads the compiled functions instead of parsing and compiling them again, about 70 ms of the
 * 415 ms from spawn to ready on the development machine (docs/operations.md, "Start-up"). An entry is
 * checked against its source and the runtime's version and flags, so a rebuilt bundle is compiled anew.
 */
export const COMPILE_CACHE_DIR = 'dist/compile-cache';

/**
 * glibc malloc settings (and the compile cache above) the node process starts with, beside NODE_RUNTIME_FLAGS
 * (`npm start` sets them; so do the testnet launcher, the tests and the benchmarks): glibc reads them once, when the
 * process starts. It gives each thread that allocates an arena of its own (up to eight per core), and
 * memory freed in an arena stays resident until that arena allocates again: V8 compiles on its helper
 * thread and on each worker thread in zones it frees at once (about 19 MB at their peak under the read
 * load), so 30 of the 46 MB the arenas held after the read load were free. Two arenas let the threads
 * reuse each other's freed memory: 12 to 13 MB less resident memory at idle. Blocks of 40 KB or more are
 * mapped on their own and returned when freed; smaller ones come from the arenas. V8's compilers (32 KB
 * zone segments) and LevelDB's background thread take and free 32 KB blocks, one or two per sequential
 * ERC-20 transfer; mapped on their own (at a 16 KB threshold), each unmapping also interrupted the other
 * core to flush its address translations, and the process spent about a tenth more CPU per transaction,
 * for about 5 MB less at the read load's peak (docs/performance.md, "Memory").
 */
export const NODE_RUNTIME_ENV = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '40960', NODE_COMPILE_CACHE: COMPILE_CACHE_DIR } as const;

function orConfigError<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${what}: ${(err as Error).message}`);
  }
}

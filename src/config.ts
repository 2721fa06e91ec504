/** Node configuration: defaults, command-line flags, validation. */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { fromHex } from './chain/bytes.ts';
import { NETWORKS, type NetworkName } from './chain/networks.ts';
import type { MiningMode } from './actors/miner/index.ts';
import { DEFAULT_TXPOOL_OPTIONS, type TxPoolOptions } from './actors/txpool/index.ts';
import { DEFAULT_FILTER_OPTIONS } from './actors/filterSupervisor/index.ts';
import { DEFAULT_REQUESTS_PER_MINUTE, loadApiKeys, type HostedConfig } from './rpc/hosted.ts';
import { REVERT_CODES, type RevertCode } from './rpc/revertCode.ts';
import { resolveSwitches, type RpcSwitches } from './rpc/switches.ts';
import { parseAnnounceAddress, parsePeerAddress } from './p2p/index.ts';

/** Peers a node dials toward by default: enough for gossip's mesh (docs/network.md "Gossip") to form. */
export const DEFAULT_MIN_PEERS = 8;
import { DEFAULT_GAS_CAP, DEFAULT_RPC_WORKER_OPTIONS } from './rpc/workers/pool.ts';

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
    /** First ban length after an invalid block or message (node-behaviour.md §12: 12 minutes). */
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
  /** Error code of reverts in eth_call / eth_estimateGas: -32015 (spec, default) or 3 (geth, which viem decodes). */
  rpcRevertCode?: RevertCode;
  /** RPC worker threads, request deadline and gas cap (src/rpc/workers/pool.ts); unset fields keep the defaults. */
  rpcWorkers?: number;
  rpcEvmTimeoutMs?: number;
  rpcGasCap?: bigint;
}

export const USAGE = `Usage: npm start -- [options]

  --network <regtest|testnet|mainnet>  chain to run (default regtest: chain id 33)
  --data-dir <path>                    LevelDB data directory (default ./data/<network>)
  --rpc-host <host>                    JSON-RPC listen address (default 127.0.0.1)
  --rpc-port <port>                    JSON-RPC port (default 4444; 0 picks a free one)
  --block-time <ms>                    mine a block every <ms> instead of on each transaction
  --no-mining                          do not mine (external miners can still submit work)
  --miner <builtin|external>           builtin (default) seals blocks itself; external leaves it to
                                       miners using mnr_* or eth_getWork (same as --no-mining)
  --coinbase <address>                 address paid the block fees
  --min-gas-price <wei>                minimum gas price blocks move toward (default 0)
  --quiet                              do not print the development accounts
  --p2p-host <ip>                      peer-to-peer listen address (default 127.0.0.1; 0.0.0.0 for every interface)
  --p2p-port <port>                    peer-to-peer TCP port (default 5050; 0 picks a free one)
  --p2p-announce <multiaddr,...>       addresses to advertise instead, e.g. /ip4/203.0.113.5/tcp/5050 or /dns4/node.example.org/tcp/5050
  --bootnodes <multiaddr,...>          peers to join, e.g. /ip4/127.0.0.1/tcp/5050/p2p/12D3KooW... or /dns4/<name>/tcp/5050/p2p/12D3KooW...
  --min-peers <n>                      dial remembered and discovered peers while below <n> (default ${DEFAULT_MIN_PEERS}, at most --max-peers)
  --max-peers <n>                      most peer connections (default 32)
  --rpc-modules <m1,m2,...>            exactly these RPC modules on (default: all on regtest; on testnet
                                       and mainnet all but personal, evm, debug, trace, sco and mnr)
  --rpc-enable-methods <a,b,...>       switch single methods on (only them, when their module is off)
  --rpc-disable-methods <a,b,...>      switch single methods off
  --rpc-config <file>                  JSON switches, applied before the three flags above:
                                       {"modules": {"debug": {"enabled": true, "methods": {"disabled": [...]}}}}
  --hosted                             hosted endpoint: serve only /<API_KEY>, hold no keys (needs --api-keys)
  --api-keys <file>                    API keys for --hosted, one per line (16-128 of A-Z a-z 0-9 _ -)
  --rate-limit <n>                     requests per minute per API key in hosted mode (default ${DEFAULT_REQUESTS_PER_MINUTE})
  --txpool-size <n>                    transactions the pool holds before evicting the cheapest (default ${DEFAULT_TXPOOL_OPTIONS.maxTxs})
  --txpool-account-slots <n>           how far past its account nonce a sender's transactions may wait (default ${DEFAULT_TXPOOL_OPTIONS.accountSlots})
  --tx-expiry-blocks <n>               drop a pool transaction after more than <n> blocks (default ${DEFAULT_TXPOOL_OPTIONS.maxAgeBlocks})
  --tx-expiry-seconds <s>              drop a pool transaction after <s> seconds (default ${DEFAULT_TXPOOL_OPTIONS.maxAgeMs / 1000})
  --light-kdf                          encrypt new key files with light scrypt parameters (fast, for development)
  --filter-timeout <s>                 remove a polling filter not polled for <s> seconds (default ${DEFAULT_FILTER_OPTIONS.idleTimeoutMs / 1000})
  --rpc-revert-code=<-32015|3>         error code of reverts in eth_call and eth_estimateGas (default -32015;
                                       3 answers 'execution reverted: <reason>', which viem decodes)
  --rpc-workers <n>                    threads running eth_call, eth_estimateGas, debug_trace* and trace_* (default: the cores, ${DEFAULT_RPC_WORKER_OPTIONS.size} here)
  --rpc-evm-timeout <ms>               deadline of one such request, waiting included (default ${DEFAULT_RPC_WORKER_OPTIONS.timeoutMs})
  --rpc-gas-cap <gas>                  most gas one eth_call, eth_estimateGas or debug_traceCall may use (default ${DEFAULT_GAS_CAP})
  --help                               this text`;

export function parseConfig(argv: string[]): NodeConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      network: { type: 'string', default: 'regtest' },
      'data-dir': { type: 'string' },
      'rpc-host': { type: 'string', default: '127.0.0.1' },
      'rpc-port': { type: 'string', default: '4444' },
      'block-time': { type: 'string' },
      'no-mining': { type: 'boolean', default: false },
      miner: { type: 'string', default: 'builtin' },
      coinbase: { type: 'string' },
      'min-gas-price': { type: 'string', default: '0' },
      quiet: { type: 'boolean', default: false },
      'p2p-host': { type: 'string', default: '127.0.0.1' },
      'p2p-port': { type: 'string', default: '5050' },
      'p2p-announce': { type: 'string', default: '' },
      bootnodes: { type: 'string', default: '' },
      'min-peers': { type: 'string' },
      'max-peers': { type: 'string', default: '32' },
      'rpc-modules': { type: 'string' },
      'rpc-enable-methods': { type: 'string' },
      'rpc-disable-methods': { type: 'string' },
      'rpc-config': { type: 'string' },
      hosted: { type: 'boolean', default: false },
      'api-keys': { type: 'string' },
      'rate-limit': { type: 'string' },
      'txpool-size': { type: 'string' },
      'txpool-account-slots': { type: 'string' },
      'tx-expiry-blocks': { type: 'string' },
      'tx-expiry-seconds': { type: 'string' },
      'light-kdf': { type: 'boolean', default: false },
      'filter-timeout': { type: 'string' },
      'rpc-revert-code': { type: 'string', default: '-32015' },
      'rpc-workers': { type: 'string' },
      'rpc-evm-timeout': { type: 'string' },
      'rpc-gas-cap': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) throw new ConfigError(USAGE);
  const network = values.network as NetworkName;
  if (!(network in NETWORKS)) throw new ConfigError(`--network must be regtest, testnet or mainnet, not ${values.network}`);
  const rpcPort = Number(values['rpc-port']);
  if (!Number.isInteger(rpcPort) || rpcPort < 0 || rpcPort > 65535) throw new ConfigError(`--rpc-port must be a port number, not ${values['rpc-port']}`);
  let blockTimeMs = 0;
  if (values['block-time'] !== undefined) {
    blockTimeMs = Number(values['block-time']);
    if (!Number.isInteger(blockTimeMs) || blockTimeMs < 10) throw new ConfigError('--block-time must be a whole number of milliseconds, at least 10');
  }
  if (values.miner !== 'builtin' && values.miner !== 'external') throw new ConfigError(`--miner must be builtin or external, not ${values.miner}`);
  if (values.coinbase !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(values.coinbase)) throw new ConfigError('--coinbase must be a 20-byte hex address');
  if (!/^\d+$/.test(values['min-gas-price']!)) throw new ConfigError('--min-gas-price must be a whole number of wei');
  const p2pPort = Number(values['p2p-port']);
  if (!Number.isInteger(p2pPort) || p2pPort < 0 || p2pPort > 65535) throw new ConfigError(`--p2p-port must be a port number, not ${values['p2p-port']}`);
  const maxPeers = Number(values['max-peers']);
  if (!Number.isInteger(maxPeers) || maxPeers < 1) throw new ConfigError('--max-peers must be a positive whole number');
  const list = (v: string | undefined) => v?.split(',').map((x) => x.trim()).filter(Boolean);
  if (isIP(values['p2p-host']!) === 0) throw new ConfigError(`--p2p-host must be an IP address (0.0.0.0 for every interface), not ${values['p2p-host']}`);
  const bootnodes = list(values.bootnodes)!;
  for (const b of bootnodes) orConfigError('--bootnodes', () => parsePeerAddress(b));
  const announce = list(values['p2p-announce'])!;
  for (const a of announce) orConfigError('--p2p-announce', () => parseAnnounceAddress(a));
  const minPeers = positive('--min-peers', values['min-peers']) ?? DEFAULT_MIN_PEERS;
  const rpcConfig = values['rpc-config'];
  const rpcModules = orConfigError('RPC module switches', () => resolveSwitches(network, {
    file: rpcConfig === undefined ? undefined : orConfigError('--rpc-config', () => JSON.parse(readFileSync(rpcConfig, 'utf8'))),
    modules: list(values['rpc-modules']), enableMethods: list(values['rpc-enable-methods']), disableMethods: list(values['rpc-disable-methods']),
  }));
  if (values.hosted !== (values['api-keys'] !== undefined)) throw new ConfigError('--hosted and --api-keys <file> go together');
  if (values['rate-limit'] !== undefined && (!values.hosted || !/^[1-9]\d*$/.test(values['rate-limit']))) {
    throw new ConfigError('--rate-limit must be a positive whole number of requests per minute, with --hosted');
  }
  const apiKeys = values['api-keys'];
  const hosted = apiKeys === undefined ? undefined : {
    apiKeys: orConfigError('--api-keys', () => loadApiKeys(apiKeys)),
    requestsPerMinute: Number(values['rate-limit'] ?? DEFAULT_REQUESTS_PER_MINUTE),
  };
  const expiryBlocks = positive('--tx-expiry-blocks', values['tx-expiry-blocks']);
  const expirySeconds = positive('--tx-expiry-seconds', values['tx-expiry-seconds']);
  const filterTimeout = positive('--filter-timeout', values['filter-timeout']);
  const rpcRevertCode = REVERT_CODES.find((c) => String(c) === values['rpc-revert-code']);
  if (rpcRevertCode === undefined) throw new ConfigError(`--rpc-revert-code must be -32015 or 3, not ${values['rpc-revert-code']}`);
  const rpcGasCap = values['rpc-gas-cap'];
  if (rpcGasCap !== undefined && !/^[1-9]\d{0,18}$/.test(rpcGasCap)) throw new ConfigError(`--rpc-gas-cap must be a positive whole amount of gas, not ${rpcGasCap}`);
  return {
    network,
    dataDir: values['data-dir'] ?? `./data/${network}`,
    rpcHost: values['rpc-host']!,
    rpcPort,
    mining: values['no-mining'] || values.miner === 'external' ? 'off' : blockTimeMs > 0 ? 'interval' : 'auto',
    blockTimeMs,
    coinbase: values.coinbase ? fromHex(values.coinbase) : NETWORKS[network].defaultCoinbase,
    minGasPrice: BigInt(values['min-gas-price']!),
    quiet: values.quiet!,
    p2p: { host: values['p2p-host']!, port: p2pPort, announce, bootnodes, minPeers: Math.min(minPeers, maxPeers), maxPeers, punishmentMs: 12 * 60_000 },
    rpcModules,
    hosted,
    txpool: definedOnly({
      maxTxs: positive('--txpool-size', values['txpool-size']),
      accountSlots: positive('--txpool-account-slots', values['txpool-account-slots']),
      maxAgeBlocks: expiryBlocks === undefined ? undefined : BigInt(expiryBlocks),
      maxAgeMs: expirySeconds === undefined ? undefined : expirySeconds * 1000,
    }),
    lightKdf: values['light-kdf']!,
    filterTimeoutMs: filterTimeout === undefined ? undefined : filterTimeout * 1000,
    rpcRevertCode,
    rpcWorkers: positive('--rpc-workers', values['rpc-workers']),
    rpcEvmTimeoutMs: positive('--rpc-evm-timeout', values['rpc-evm-timeout']),
    rpcGasCap: rpcGasCap === undefined ? undefined : BigInt(rpcGasCap),
  };
}

/** A positive whole number flag, or undefined when absent. */
function positive(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[1-9]\d{0,8}$/.test(value)) throw new ConfigError(`${flag} must be a positive whole number, not ${value}`);
  return Number(value);
}
const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export class ConfigError extends Error {}

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
 * (measured with 4 MB semi-spaces and 30 % growth; with these flags it is about 140 MB).
 */
export const NODE_RUNTIME_FLAGS = [
  '--max-semi-space-size=8', '--heap-growing-percent=40', '--v8-pool-size=1', '--no-separate-gc-phases',
] as const;

function orConfigError<T>(what: string, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${what}: ${(err as Error).message}`);
  }
}

/** Node configuration: defaults, command-line flags, validation. */
import { parseArgs } from 'node:util';
import { fromHex } from './chain/bytes.ts';
import { NETWORKS, type NetworkName } from './chain/networks.ts';
import type { MiningMode } from './actors/miner/index.ts';

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
  };
}

export class ConfigError extends Error {}

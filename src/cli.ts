/** `npm start` (through src/main.ts): runs a node until Ctrl-C (SIGINT) or SIGTERM, then stops it cleanly. */
import { bytesToHex } from '@ethereumjs/util';
import { ConfigError, ConfigExit, parseConfig, type NodeConfig } from './config/index.ts';
import { NETWORKS } from './chain/execution/networks.ts';
import { configureLogging, logger, logsDebug } from './log.ts';
import { startNode, type RunningNode } from './node.ts';
import { StartupError } from './startup.ts';

let config: NodeConfig;
try {
  config = parseConfig(process.argv.slice(2), process.env);
} catch (err) {
  if (err instanceof ConfigExit) { console.log(err.message); process.exit(0); }
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(2);
}
configureLogging(config.log!.level, config.log!.format);
const log = logger('main');

let node: RunningNode;
try {
  node = await startNode(config);
} catch (err) {
  // One line naming the problem and its fix (src/startup.ts); the stack only when debugging.
  const line = err instanceof StartupError ? err.message : `cannot start: ${(err as Error).message}`;
  if (logsDebug()) log.fatal({ err }, line);
  else console.error(line);
  process.exit(1);
}
const network = NETWORKS[config.network];
const head = node.reader.head();
log.info(`mmnode ${network.name} (chain id ${network.chainId}), data in ${config.dataDir}, head #${head.number} ${bytesToHex(head.hash)}`);
if (!config.quiet && network.devAccounts.length) {
  // Printed, never logged: log lines must not carry keys, and these public regtest keys are for the operator's eyes.
  console.log('\nDevelopment accounts (10^12 native coins each; these keys are public: use them on regtest only)\n');
  network.devAccounts.forEach((a, i) => console.log(`(${i}) ${bytesToHex(a.address)}  private key ${bytesToHex(a.privateKey)}`));
  console.log('');
}
const mining = config.mining === 'auto' ? 'a block per batch of new transactions' : config.mining === 'interval' ? `a block every ${config.blockTimeMs} ms` : 'off';
log.info(`mining: ${mining}`);
log.info(`JSON-RPC: ${node.rpcUrl}`);
log.info(`P2P: ${node.p2p.multiaddrs.join(' ')}`);
if (node.metricsUrl) log.info(`metrics: ${node.metricsUrl}/metrics, status page: ${node.metricsUrl}/`);
// The keys are secrets: say how many there are, never which.
if (config.hosted) log.info(`Hosted mode: requests only at ${node.rpcUrl}/<API_KEY>, ${config.hosted.apiKeys.size} API keys, ${config.hosted.requestsPerMinute} requests per minute each; no keys held`);
// Stopped cleanly from the moment it says it serves: a signal sent right after the ready line is not a kill.
let signals = 0;
const shutdown = (signal: string) => {
  if (++signals > 1) process.exit(130);
  log.info(`${signal}: stopping...`);
  void node.stop();
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
// A machine-readable line for scripts and the test harness.
console.log(JSON.stringify({ ready: true, rpcUrl: node.rpcUrl, metricsUrl: node.metricsUrl, peerId: node.p2p.peerId, multiaddrs: node.p2p.multiaddrs }));
await node.stopped;
log.info('stopped');
process.exit(0);

/** `npm start` (through src/main.ts): runs a node until Ctrl-C (SIGINT) or SIGTERM, then stops it cleanly. */
import { bytesToHex } from '@ethereumjs/util';
import { ConfigError, parseConfig } from './config.ts';
import { NETWORKS } from './chain/networks.ts';
import { startNode } from './node.ts';

let config;
try {
  config = parseConfig(process.argv.slice(2));
} catch (err) {
  if (!(err instanceof ConfigError) && !(err instanceof TypeError)) throw err;
  console.error((err as Error).message);
  process.exit(err instanceof ConfigError && (err as Error).message.startsWith('Usage') ? 0 : 2);
}

const node = await startNode(config);
const network = NETWORKS[config.network];
const head = node.reader.head();
console.log(`mmnode ${network.name} (chain id ${network.chainId}), data in ${config.dataDir}, head #${head.number} ${bytesToHex(head.hash)}`);
if (!config.quiet && network.devAccounts.length) {
  console.log('\nDevelopment accounts (10^12 native coins each; these keys are public: use them on regtest only)\n');
  network.devAccounts.forEach((a, i) => console.log(`(${i}) ${bytesToHex(a.address)}  private key ${bytesToHex(a.privateKey)}`));
  console.log('');
}
const mining = config.mining === 'auto' ? 'a block per batch of new transactions' : config.mining === 'interval' ? `a block every ${config.blockTimeMs} ms` : 'off';
console.log(`Mining: ${mining}`);
console.log(`JSON-RPC: ${node.rpcUrl}`);
console.log(`P2P: ${node.p2p.multiaddrs.join(' ')}`);
// The keys are secrets: say how many there are, never which.
if (config.hosted) console.log(`Hosted mode: requests only at ${node.rpcUrl}/<API_KEY>, ${config.hosted.apiKeys.size} API keys, ${config.hosted.requestsPerMinute} requests per minute each; no keys held`);
// A machine-readable line for scripts and the test harness.
console.log(JSON.stringify({ ready: true, rpcUrl: node.rpcUrl, peerId: node.p2p.peerId, multiaddrs: node.p2p.multiaddrs }));

let signals = 0;
const shutdown = (signal: string) => {
  if (++signals > 1) process.exit(130);
  console.log(`\n${signal}: stopping...`);
  void node.stop();
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
await node.stopped;
console.log('stopped');
process.exit(0);

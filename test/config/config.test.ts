/** Configuration: a TOML file, MMNODE_ variables and flags through one schema; refusals name the option and what it accepts. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, ConfigExit, parseConfig, USAGE } from '../../src/config/index.ts';
import { OPTIONS } from '../../src/config/options.ts';
import { tempDir } from '../helpers/node.ts';

const Config = suite('config');
const dir = tempDir();
const file = (name: string, text: string) => { const path = join(dir, name); writeFileSync(path, text); return path; };
const refusal = (argv: string[], env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseConfig(argv, env);
  } catch (err) {
    assert.instance(err, ConfigError);
    return (err as Error).message;
  }
  throw new Error(`accepted ${argv.join(' ')} ${JSON.stringify(env)}`);
};

Config('the file, then MMNODE_ variables, then flags: later ones win', () => {
  const toml = file('node.toml', 'rpc-port = 4000\np2p-port = 5000\nmax-peers = 9\nbootnodes = []\nquiet = true\nmetrics-port = 9100\n');
  const c = parseConfig(['--config', toml, '--p2p-port', '5001'], { MMNODE_RPC_PORT: '4001', MMNODE_P2P_PORT: '4999', MMNODE_LOG_LEVEL: 'debug' });
  assert.is(c.rpcPort, 4001);
  assert.is(c.p2p.port, 5001);
  assert.is(c.p2p.maxPeers, 9);
  assert.is(c.quiet, true);
  assert.equal(c.metrics, { host: '127.0.0.1', port: 9100 });
  assert.is(c.log!.level, 'debug');
  assert.is(parseConfig([], { MMNODE_CONFIG: toml }).rpcPort, 4000);
  assert.is(parseConfig([]).metrics, undefined);
});

Config('malformed values are refused naming the option, where it was set, and what it accepts', () => {
  assert.match(refusal(['--rpc-port', '70000']), /^--rpc-port must be a port number from 0 to 65535, not "70000"/);
  assert.match(refusal([], { MMNODE_METRICS_PORT: 'x' }), /^MMNODE_METRICS_PORT must be a port number/);
  assert.match(refusal(['--config', file('bad.toml', 'block-time = 5\n')]), /^block-time in .*bad\.toml must be a whole number of milliseconds, at least 10, not 5/);
  assert.match(refusal(['--log-format', 'xml']), /^--log-format must be json or pretty/);
  assert.match(refusal(['--p2p-host', 'localhost']), /^--p2p-host must be an IP address/);
  assert.match(refusal(['--config', file('broken.toml', 'rpc-port = \n')]), /is not valid TOML/);
  assert.match(refusal(['--config', join(dir, 'missing.toml')]), /--config: cannot read .*ENOENT/);
});

Config('--client-version names the client web3_clientVersion answers; by default the node answers its own', () => {
  assert.is(parseConfig(['--client-version', 'HardhatNetwork-compatible mmnode']).clientVersion, 'HardhatNetwork-compatible mmnode');
  assert.is(parseConfig([]).clientVersion, undefined);
  assert.match(refusal(['--client-version', 'two\nlines']), /^--client-version must be 1 to 200 printable ASCII characters/);
  assert.match(refusal(['--client-version', 'x'.repeat(201)]), /^--client-version must be 1 to 200 printable ASCII characters/);
});

Config('a pool transaction\'s and a filter\'s life in seconds: at most what a timer waits (a longer timer would fire at once)', () => {
  const longest = parseConfig(['--filter-timeout', '2147483', '--tx-expiry-seconds', '2147483']);
  assert.is(longest.filterTimeoutMs, 2_147_483_000);
  assert.is(longest.txpool!.maxAgeMs, 2_147_483_000);
  assert.match(refusal(['--filter-timeout', '2147484']), /^--filter-timeout must be a whole number of seconds from 1 to 2147483 \(about 24\.8 days\), not "2147484"/);
  assert.match(refusal([], { MMNODE_TX_EXPIRY_SECONDS: '999999999' }), /^MMNODE_TX_EXPIRY_SECONDS must be a whole number of seconds from 1 to 2147483/);
});

Config('unknown keys are refused wherever they come from', () => {
  assert.match(refusal(['--rpc-prot', '1']), /Unknown option '--rpc-prot'/);
  assert.match(refusal([], { MMNODE_RPC_PROT: '1' }), /^MMNODE_RPC_PROT: unknown option/);
  assert.match(refusal(['--config', file('unknown.toml', 'rpc-prot = 1\n')]), /^rpc-prot in .*: unknown option/);
  // Command-line actions are not settings.
  assert.match(refusal(['--config', file('help.toml', 'help = true\n')]), /^help in .*: unknown option/);
});

Config('contradictory options are refused naming them', () => {
  const keys = file('keys', `${'k'.repeat(20)}\n`);
  assert.match(refusal(['--hosted', '--api-keys', keys, '--rpc-modules', 'eth,personal']), /--hosted .* personal/);
  assert.match(refusal(['--hosted', '--api-keys', keys, '--rpc-enable-methods', 'personal_listAccounts']), /--hosted .* personal/);
  assert.match(refusal(['--rate-limit', '5']), /--rate-limit .* with --hosted/);
  // On its own --hosted is fine: personal_* then answer that the node holds no keys.
  assert.ok(parseConfig(['--hosted', '--api-keys', keys]).hosted);
});

Config('--print-config prints TOML that, read back, gives the same configuration', () => {
  const argv = ['--rpc-port', '4100', '--bootnodes', '/ip4/127.0.0.1/tcp/5050/p2p/12D3KooWS3K3UaoyYAAxxuRoZ68hd3bvVhaTmZV6gRdfChDbjWFZ', '--min-gas-price', '7', '--metrics-port', '0'];
  let printed = '';
  try {
    parseConfig([...argv, '--print-config'], { MMNODE_TXPOOL_SIZE: '99' });
  } catch (err) {
    assert.instance(err, ConfigExit);
    printed = (err as Error).message;
  }
  assert.match(printed, /^rpc-port = 4100$/m);
  assert.match(printed, /^txpool-size = 99$/m);
  assert.match(printed, /^data-dir = "\.\/data\/regtest"$/m);
  assert.equal(parseConfig(['--config', file('printed.toml', printed)]), parseConfig(argv, { MMNODE_TXPOOL_SIZE: '99' }));
});

Config('--help is made from the schema: every option with its argument', () => {
  assert.throws(() => parseConfig(['--help']), (e: Error) => e instanceof ConfigExit && e.message === USAGE);
  for (const name of Object.keys(OPTIONS)) assert.match(USAGE, new RegExp(`^  --${name}\\b`, 'm'));
  assert.match(USAGE, /--rpc-port <port> +JSON-RPC port/);
});

Config.run();

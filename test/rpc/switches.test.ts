/**
 * Module and method switches: the reference's rule and defaults, the command-line flags and the
 * JSON file, and real nodes answering a switched-off method with -32601 "not available" (distinct
 * from an unknown method), rpc_modules, and a testnet node without a wallet.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import WebSocket from 'ws';
import * as assert from 'uvu/assert';
import { ConfigError, parseConfig } from '../../src/config/index.ts';
import { defaultSwitches, isCallable, resolveSwitches, SwitchError } from '../../src/rpc/switches.ts';
import { startTestNode, tempDir, type TestNode } from '../helpers/node.ts';
import { rpc, rpcError } from '../helpers/rpc.ts';

const Switches = suite('RPC module switches');
const nodes: TestNode[] = [];
Switches.after(async () => { for (const n of nodes.reverse()) await n.stop(); });
const start = async (...args: Parameters<typeof startTestNode>) => {
  const n = await startTestNode(...args);
  nodes.push(n);
  return n;
};

const GUARDED = ['personal', 'evm', 'debug', 'trace', 'sco', 'mnr'];

Switches('defaults: regtest enables every module; testnet and mainnet leave personal, evm, debug, trace, sco and mnr off', () => {
  const regtest = defaultSwitches('regtest');
  assert.ok(Object.values(regtest).every((s) => s.enabled));
  for (const network of ['testnet', 'mainnet'] as const) {
    const s = defaultSwitches(network);
    assert.equal(Object.entries(s).filter(([, v]) => !v.enabled).map(([m]) => m).sort(), [...GUARDED].sort());
    assert.ok(isCallable(s, 'eth_getBalance') && isCallable(s, 'chain_getRawBlockHeaderByHash'));
    assert.not.ok(isCallable(s, 'debug_traceTransaction'));
  }
});

Switches('the reference rule: module on, method not disabled, and an enabled list empty or naming it', () => {
  const s = resolveSwitches('testnet', { file: { modules: { eth: { enabled: true, methods: { enabled: ['eth_chainId', 'eth_sign'], disabled: ['eth_sign'] } } } } });
  assert.ok(isCallable(s, 'eth_chainId'));
  assert.not.ok(isCallable(s, 'eth_sign'), 'disabled wins over enabled');
  assert.not.ok(isCallable(s, 'eth_blockNumber'), 'not in a non-empty enabled list');
  assert.ok(isCallable(s, 'net_version'), 'modules missing from the file keep their defaults');
  assert.not.ok(isCallable(s, 'shh_version'), 'an unknown module is off');
});

Switches('flags: --rpc-modules sets the modules, --rpc-enable-methods turns single methods on, --rpc-disable-methods off', () => {
  const only = resolveSwitches('regtest', { modules: ['eth', 'net'] });
  assert.ok(isCallable(only, 'eth_chainId') && isCallable(only, 'net_version'));
  assert.not.ok(isCallable(only, 'web3_clientVersion'));
  const s = resolveSwitches('mainnet', { enableMethods: ['trace_block', 'eth_chainId'], disableMethods: ['eth_getProof'] });
  assert.ok(isCallable(s, 'trace_block'));
  assert.not.ok(isCallable(s, 'trace_filter'), 'only the named method of an otherwise off module');
  assert.ok(isCallable(s, 'eth_blockNumber'), 'naming a method of a module already on does not narrow it');
  assert.not.ok(isCallable(s, 'eth_getProof'));
});

Switches('bad switches are refused with a reason', () => {
  assert.throws(() => resolveSwitches('regtest', { modules: ['eht'] }), (e: Error) => e instanceof SwitchError && /unknown module "eht"/.test(e.message));
  assert.throws(() => resolveSwitches('regtest', { disableMethods: ['sign'] }), /not a method name/);
  assert.throws(() => resolveSwitches('regtest', { file: { modules: { debug: { enabled: 'yes' } } } }), /modules.debug/);
  assert.throws(() => resolveSwitches('regtest', { file: { modules: { debug: { enabled: true, methods: { enabled: ['eth_sign'] } } } } }), /debug_\* method names/);
  assert.throws(() => resolveSwitches('regtest', { file: [] }), /expected \{"modules"/);
});

Switches('parseConfig reads the flags and the JSON file; errors are ConfigErrors', () => {
  const dir = tempDir();
  const file = join(dir, 'rpc.json');
  writeFileSync(file, JSON.stringify({ modules: { debug: { enabled: true, methods: { disabled: ['debug_traceBlockByHash'] } } } }));
  const c = parseConfig(['--network', 'testnet', '--rpc-config', file, '--rpc-disable-methods', 'eth_sign, eth_sendTransaction']);
  assert.ok(isCallable(c.rpcModules!, 'debug_traceTransaction'));
  assert.not.ok(isCallable(c.rpcModules!, 'debug_traceBlockByHash'));
  assert.not.ok(isCallable(c.rpcModules!, 'eth_sendTransaction'));
  assert.not.ok(isCallable(c.rpcModules!, 'trace_block'));
  assert.equal(parseConfig([]).rpcModules, defaultSwitches('regtest'));
  writeFileSync(file, '{"modules": ');
  for (const argv of [['--rpc-config', file], ['--rpc-config', join(dir, 'missing.json')], ['--rpc-modules', 'eth,nope']]) {
    assert.throws(() => parseConfig(argv), (e: Error) => e instanceof ConfigError, argv.join(' '));
  }
});

Switches('a switched-off module and method answer -32601 "not available", unlike an unknown method; rpc_modules lists what is on', async () => {
  const n = await start({ rpcModules: resolveSwitches('regtest', { modules: ['eth', 'net', 'web3', 'rpc'], disableMethods: ['eth_sign'] }) });
  const traced = await rpcError(n.url, 'debug_traceTransaction', [`0x${'ab'.repeat(32)}`]);
  assert.is(traced.code, -32601);
  assert.is(traced.message, "the method debug_traceTransaction does not exist/is not available: the debug module is disabled in this node's configuration");
  const signed = await rpcError(n.url, 'eth_sign', ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0x00']);
  assert.is(signed.code, -32601);
  assert.match(signed.message, /eth_sign does not exist\/is not available: eth_sign is disabled/);
  const unknown = await rpcError(n.url, 'debug_noSuchMethod');
  assert.is(unknown.code, -32601);
  assert.match(unknown.message, /^method not found/);
  assert.equal(await rpc(n.url, 'rpc_modules'), { web3: '1.0', net: '1.0', eth: '1.0', rpc: '1.0' });
  assert.is(await rpc(n.url, 'eth_chainId'), '0x21');
});

Switches('over WebSocket eth_subscribe obeys the switches like every other method', async () => {
  const n = await start({ rpcModules: resolveSwitches('regtest', { disableMethods: ['eth_subscribe'] }) });
  const ws = new WebSocket(n.url.replace(/^http/, 'ws'));
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  try {
    const ask = (id: number, method: string, params: unknown[]) => new Promise<any>((resolve) => {
      ws.once('message', (data) => resolve(JSON.parse(data.toString())));
      ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    });
    const subscribed = await ask(1, 'eth_subscribe', ['newHeads']);
    assert.is(subscribed.error?.code, -32601);
    assert.match(subscribed.error?.message, /eth_subscribe does not exist\/is not available: eth_subscribe is disabled/);
    assert.is((await ask(2, 'eth_unsubscribe', ['0x1'])).result, false, 'eth_unsubscribe stays on');
  } finally {
    ws.close();
  }
});

Switches('a single enabled method of an off module is served alone', async () => {
  const n = await start({ rpcModules: resolveSwitches('testnet', { enableMethods: ['debug_wireProtocolQueueSize'] }), network: 'testnet', mining: 'off' });
  assert.is(await rpc(n.url, 'debug_wireProtocolQueueSize'), '0x0');
  assert.match((await rpcError(n.url, 'debug_traceBlockByNumber', ['latest'])).message, /debug_traceBlockByNumber is disabled/);
  assert.ok('debug' in await rpc(n.url, 'rpc_modules'));
});

Switches('testnet defaults on a real node: guarded modules off, no wallet', async () => {
  const n = await start({ network: 'testnet', mining: 'off' });
  const modules = await rpc(n.url, 'rpc_modules');
  for (const m of ['web3', 'net', 'eth', 'rpc', 'chain']) assert.is(modules[m], '1.0', m);
  for (const m of GUARDED) assert.not.ok(m in modules, m);
  for (const [method, params] of [['debug_traceTransaction', [`0x${'ab'.repeat(32)}`]], ['trace_block', ['latest']], ['mnr_getWork', []], ['personal_newAccount', ['pw']]] as const) {
    const err = await rpcError(n.url, method, [...params]);
    assert.is(err.code, -32601, method);
    assert.match(err.message, /module is disabled/);
  }
  assert.equal(await rpc(n.url, 'eth_accounts'), []);
  const sign = await rpcError(n.url, 'eth_sign', ['0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '0x00']);
  assert.is(sign.code, -32602);
  assert.match(sign.message, /Local wallet is disabled in this node/);
  assert.is(await rpc(n.url, 'eth_chainId'), '0x1f');
});

Switches.run();

/**
 * Foundry 1.7.1 from npm (@foundry-rs/forge, @foundry-rs/cast and their linux-amd64 packages, whose
 * binaries the packages' bin scripts run) against a real node: `forge script --broadcast`, `forge test
 * --fork-url`, `cast run`, and the block shapes cast parses. forge compiles with the npm `solc` package
 * through a `solc` command-line shim (test/compat/solcShim.mjs) and runs offline: nothing downloads.
 */
import { chmodSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, tempDir, type TestNode } from '../helpers/node.ts';
import { rpc } from '../helpers/rpc.ts';
import { runTool } from '../helpers/tool.ts';

const DEV_KEY = '0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4';
const root = new URL('../..', import.meta.url).pathname;
const bin = (tool: 'forge' | 'cast') => join(root, 'node_modules/.bin', tool);

const Foundry = suite('Foundry (forge, cast)');
let node: TestNode | undefined;
let project: string | undefined;
Foundry.after(async () => {
  await node?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Runs a Foundry tool in the project, offline. */
const run = (tool: 'forge' | 'cast', args: string[], env: Record<string, string> = {}) =>
  runTool(bin(tool), args, { cwd: project, env: { FOUNDRY_OFFLINE: 'true', ...env } });

/** A node with one block mined (a fork at genesis sees PREVRANDAO 0, which changes SSTORE gas) and the project. */
async function setup() {
  if (node) return node.url;
  node = await startTestNode();
  await rpc(node.url, 'evm_mine');
  project = tempDir('mmnode-foundry-');
  cpSync(new URL('./foundry', import.meta.url).pathname, project, { recursive: true });
  const solc = join(project, 'solc');
  writeFileSync(solc, `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'test/compat/solcShim.mjs')}" "$@"\n`);
  chmodSync(solc, 0o755);
  writeFileSync(join(project, 'foundry.toml'), [
    '[profile.default]', 'src = "src"', 'out = "out"', 'libs = []', 'test = "test"', 'script = "script"',
    `solc = "${solc}"`, 'offline = true', '',
  ].join('\n'));
  return node.url;
}

let counter: string;
let bumpHash: string;

Foundry('forge script --broadcast (EIP-1559, no --legacy) deploys and calls; the block\'s mixHash is the PREVRANDAO the contract saw', async () => {
  const url = await setup();
  const out = await run('forge', ['script', 'script/Deploy.s.sol:Deploy', '--rpc-url', url, '--broadcast', '--private-key', DEV_KEY]);
  assert.match(out, /ONCHAIN EXECUTION COMPLETE & SUCCESSFUL/);
  const broadcast = JSON.parse(readFileSync(join(project!, 'broadcast/Deploy.s.sol/33/run-latest.json'), 'utf8'));
  assert.equal(broadcast.transactions.map((t: { transactionType: string }) => t.transactionType), ['CREATE', 'CALL']);
  // forge sends both at once and may file their hashes in the order the node answered, so each is
  // known by what it is on chain: the creation has no `to`, the call goes to the counter.
  const sent = await Promise.all(broadcast.transactions.map((t: { hash: string }) => rpc(url, 'eth_getTransactionByHash', [t.hash])));
  const create = sent.find((tx) => tx.to === null);
  const bump = sent.find((tx) => tx.to !== null);
  assert.ok(create && bump, 'one creation and one call');
  assert.is(bump.input, '0x68110b2f', 'bump()');
  counter = (await rpc(url, 'eth_getTransactionReceipt', [create.hash])).contractAddress;
  assert.is(bump.to, counter);
  bumpHash = bump.hash;
  const receipt = await rpc(url, 'eth_getTransactionReceipt', [bumpHash]);
  assert.is(receipt.status, '0x1');
  assert.is(receipt.type, '0x2');
  const call = (sig: string) => rpc<string>(url, 'eth_call', [{ to: counter, data: sig }, 'latest']);
  assert.is(BigInt(await call('0x06661abd')), 1n, 'count()');
  const block = await rpc(url, 'eth_getBlockByNumber', [receipt.blockNumber, false]);
  assert.is(BigInt(await call('0x56e83e81')), BigInt(block.mixHash), 'randao() is the block\'s mixHash');
  assert.is(block.mixHash, block.parentHash);
});

Foundry('forge test --fork-url runs a test against the node\'s state', async () => {
  const url = await setup();
  const out = await run('forge', ['test', '--fork-url', url], { COUNTER: counter });
  assert.match(out, /\[PASS\] test_deployedCounterOnFork\(\)/);
  assert.match(out, /1 tests passed, 0 failed/);
});

Foundry('cast run replays the mined call with the gas it used on chain', async () => {
  const url = await setup();
  const out = await run('cast', ['run', bumpHash, '--rpc-url', url]);
  assert.match(out, /Transaction successfully executed/);
  const { gasUsed } = await rpc(url, 'eth_getTransactionReceipt', [bumpHash]);
  assert.match(out, new RegExp(`Gas used: ${BigInt(gasUsed)}\\b`));
});

Foundry('cast access-list lists the counter\'s two slots', async () => {
  const url = await setup();
  const out = await run('cast', ['access-list', counter, 'bump()', '--from', '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826', '--rpc-url', url]);
  assert.match(out, new RegExp(counter.slice(2), 'i'));
  assert.match(out, /0x0{64}/);
  assert.match(out, /0x0{63}1/);
});

Foundry('cast rpc debug_traceCall: the callTracer frame of bump()', async () => {
  const url = await setup();
  const out = await run('cast', ['rpc', 'debug_traceCall', JSON.stringify({ to: counter, data: '0x68110b2f' }), 'latest', JSON.stringify({ tracer: 'callTracer' }), '--rpc-url', url]);
  const frame = JSON.parse(out);
  assert.equal([frame.type, frame.to.toLowerCase(), frame.input], ['CALL', counter.toLowerCase(), '0x68110b2f']);
  assert.is(frame.error, undefined, 'bump() succeeds');
  assert.ok(BigInt(frame.gasUsed) > 21_000n);
});

Foundry('cast reads the pending block and the safe and finalized tags', async () => {
  const url = await setup();
  const head = BigInt(await rpc(url, 'eth_blockNumber'));
  assert.is((await run('cast', ['block', 'pending', '--field', 'number', '--rpc-url', url])).trim(), String(head + 1n));
  assert.is((await run('cast', ['block', 'finalized', '--field', 'number', '--rpc-url', url])).trim(), String(head > 12n ? head - 12n : 0n));
  assert.is((await run('cast', ['block', 'safe', '--field', 'number', '--rpc-url', url])).trim(), String(head > 6n ? head - 6n : 0n));
});

Foundry('cast send without --legacy: an EIP-1559 transaction, mined at its tip', async () => {
  const url = await setup();
  const out = await run('cast', ['send', counter, 'bump()', '--private-key', DEV_KEY, '--rpc-url', url, '--json']);
  const { transactionHash, status, type } = JSON.parse(out);
  assert.equal([status, type], ['0x1', '0x2']);
  const tx = await rpc(url, 'eth_getTransactionByHash', [transactionHash]);
  assert.is(tx.gasPrice, tx.maxPriorityFeePerGas);
  assert.is(BigInt(await rpc<string>(url, 'eth_call', [{ to: counter, data: '0x06661abd' }, 'latest'])), 2n, 'count() after two bumps');
});

Foundry('cast send --unlocked --from an impersonated account without its key', async () => {
  const url = await setup();
  const whale = '0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a';
  await run('cast', ['rpc', 'anvil_setBalance', whale, '0xde0b6b3a7640000', '--rpc-url', url]);
  await run('cast', ['rpc', 'anvil_impersonateAccount', whale, '--rpc-url', url]);
  const out = await run('cast', ['send', counter, 'bump()', '--unlocked', '--from', whale, '--rpc-url', url, '--json']);
  const { status, from } = JSON.parse(out);
  assert.equal([status, from.toLowerCase()], ['0x1', whale]);
});

Foundry('cast send --sync gets the receipt in the send\'s answer, signed by cast (eth_sendRawTransactionSync) or by the node (eth_sendTransactionSync)', async () => {
  const url = await setup();
  const count = async () => BigInt(await rpc<string>(url, 'eth_call', [{ to: counter, data: '0x06661abd' }, 'latest']));
  const before = await count();
  const signed = JSON.parse(await run('cast', ['send', counter, 'bump()', '--sync', '--private-key', DEV_KEY, '--rpc-url', url, '--json']));
  assert.is(signed.status, '0x1');
  const stored = await rpc(url, 'eth_getTransactionReceipt', [signed.transactionHash]);
  assert.equal([signed.blockHash, signed.blockNumber], [stored.blockHash, stored.blockNumber]);
  const [account] = await rpc<string[]>(url, 'eth_accounts');
  const unlocked = JSON.parse(await run('cast', ['send', counter, 'bump()', '--sync', '--unlocked', '--from', account!, '--rpc-url', url, '--json']));
  assert.equal([unlocked.status, unlocked.from.toLowerCase()], ['0x1', account]);
  assert.is(await count(), before + 2n);
});

Foundry.run();

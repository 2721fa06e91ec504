/**
 * Hardhat 3 from npm against a real node: a project on its default settings deploys with Ignition
 * (`hardhat ignition deploy`, which asks hardhat_getAutomine and, on an automining node, waits for no
 * confirmations) and passes node:test suites (`hardhat test nodejs`: they also send as an impersonated account, and load a
 * fixture and move time with Hardhat's network helpers, as Hardhat's sample project does). Contracts come as an artifact
 * compiled with the npm `solc` package, so Hardhat compiles nothing and downloads no compiler.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestNode, tempDir, type TestNode } from '../helpers/node.ts';
import { rpc } from '../helpers/rpc.ts';
import { compileFixtureArtifact } from '../helpers/solc.ts';
import { runTool } from '../helpers/tool.ts';

const root = new URL('../..', import.meta.url).pathname;
const HARDHAT_CLI = join(root, 'node_modules/hardhat/dist/src/cli.js');

const Hardhat = suite('Hardhat 3 with Ignition');
let node: TestNode | undefined;
let project: string | undefined;
Hardhat.after(async () => {
  await node?.stop();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** The project in a temp dir (Hardhat writes deployments and caches there), resolving packages from ours. */
async function setup() {
  if (node) return node.url;
  // Hardhat's network helpers run only on a node whose client version starts with HardhatNetwork, anvil or zksync.
  node = await startTestNode({ clientVersion: 'HardhatNetwork-compatible mmnode' });
  project = tempDir('mmnode-hardhat-');
  cpSync(new URL('./hardhat', import.meta.url).pathname, project, { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'));
  mkdirSync(join(project, 'artifacts/contracts/Lock.sol'), { recursive: true });
  // Store's artifact is imported by the Ignition module; Lock's is where Hardhat looks contracts up by name.
  writeFileSync(join(project, 'artifacts/Store.json'), JSON.stringify(compileFixtureArtifact('Store.sol', 'Store')));
  writeFileSync(join(project, 'artifacts/contracts/Lock.sol/Lock.json'), JSON.stringify(compileFixtureArtifact('Lock.sol', 'Lock')));
  return node.url;
}

/** Ignition asks before deploying to a network other than Hardhat's own; a script answers through HARDHAT_IGNITION_CONFIRM_DEPLOYMENT. */
const hardhat = (args: string[]) => runTool(process.execPath, [HARDHAT_CLI, ...args], {
  cwd: project, env: { MMNODE_URL: node!.url, HARDHAT_IGNITION_CONFIRM_DEPLOYMENT: 'false' },
});

Hardhat('hardhat ignition deploy on default settings deploys Store and calls set(7)', async () => {
  const url = await setup();
  const out = await hardhat(['ignition', 'deploy', 'ignition/modules/Store.js', '--network', 'mmnode']);
  assert.match(out, /\[ StoreModule \] successfully deployed/);
  const deployed = JSON.parse(readFileSync(join(project!, 'ignition/deployments/chain-33/deployed_addresses.json'), 'utf8'));
  const store = deployed['StoreModule#Store'];
  assert.ok(store, JSON.stringify(deployed));
  assert.is(BigInt(await rpc(url, 'eth_call', [{ to: store, data: '0x3fa4f245' }, 'latest'])), 7n, 'value()');
});

Hardhat('hardhat test nodejs passes node:test suites: one deploys with Ignition, one loads a fixture and moves time with the network helpers', async () => {
  await setup();
  const out = await hardhat(['test', 'nodejs', '--no-compile', '--network', 'mmnode']);
  assert.match(out, /9 passing/);
  assert.not.match(out, /failing/);
});

Hardhat.run();

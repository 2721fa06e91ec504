/**
 * `npm run bench:hardhat-suite`: a real Hardhat 3 test suite against mmnode and `hardhat node` (Hardhat 3),
 * each over HTTP, as a developer runs one against a node: `hardhat test nodejs` with hardhat-viem and
 * Hardhat's network helpers: the compatibility suite's Lock test (test/compat/hardhat/test/Lock.test.js, Hardhat's
 * sample Lock contract), run BENCH_SUITE_REPEAT times. Four of its tests load a fixture (a deployment; reverted to
 * by the tests after the first) and read, expect a revert, move time to the unlock time and withdraw, or check
 * that the next test is back before it; one mines through viem's test client. The suite's wall time from the command
 * to its exit (Hardhat's start included) and the test runner's own duration; rounds taken in turn, the
 * median reported, and the first round alone (each peer's first run after it started; the client has run the suite
 * once before, untimed, on Hardhat's in-process network). A measurement, not a test: exits 0 whatever the ratios.
 *
 *   BENCH_SUITE_PEERS=mmnode,hardhat         which peers (default these two; anvil may be added, but Anvil 1.x
 *                                            stopped answering the suite's fourth withdrawal here, so its run
 *                                            ends at the timeout)
 *   BENCH_SUITE_ROUNDS=3                     rounds per peer (at most 9)
 *   BENCH_SUITE_REPEAT=10                    times the suite's five tests run (at most 50)
 */
import { bytesToHex } from '@ethereumjs/util';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { compileFixtureArtifact } from '../test/helpers/solc.ts';
import { rpc } from './load.ts';
import { NODE_BIN, ROOT, startPeer, type Peer, type PeerName } from './peers.ts';
import { CHAIN_ID, GENESIS_BALANCE, SENDER_KEYS } from './workloads.ts';

const NAMES = ['mmnode', 'hardhat', 'anvil'] as const satisfies readonly PeerName[];
type Name = (typeof NAMES)[number];
const selected = (process.env.BENCH_SUITE_PEERS ?? 'mmnode,hardhat').split(',').map((s) => s.trim()) as Name[];
for (const n of selected) if (!NAMES.includes(n)) throw new Error(`unknown peer ${n} in BENCH_SUITE_PEERS (known: ${NAMES.join(', ')})`);
const ROUNDS = Number(process.env.BENCH_SUITE_ROUNDS ?? 3);
const REPEAT = Number(process.env.BENCH_SUITE_REPEAT ?? 10);
if (!(ROUNDS >= 1 && ROUNDS <= 9)) throw new Error('BENCH_SUITE_ROUNDS must be between 1 and 9');
if (!(REPEAT >= 1 && REPEAT <= 50)) throw new Error('BENCH_SUITE_REPEAT must be between 1 and 50');

/** Hardhat's network helpers run only where web3_clientVersion starts with a name they know (docs/rpc-compatibility.md "Client version"). */
const MMNODE_ARGS = ['--client-version', 'HardhatNetwork-compatible mmnode'];
const HARDHAT_CLI = join(ROOT, 'node_modules/hardhat/dist/src/cli.js');
/** The Lock suite's tests: four load the fixture, one mines through viem's test client. */
const TESTS_PER_ROUND = 5;

/** The compatibility suite's Hardhat project (test/compat/hardhat) with only its Lock suite, resolving its packages from ours. */
function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mmnode-bench-suite-'));
  cpSync(join(ROOT, 'test/compat/hardhat'), dir, { recursive: true });
  rmSync(join(dir, 'test/Store.test.js'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'artifacts/contracts/Lock.sol'), { recursive: true });
  writeFileSync(join(dir, 'artifacts/contracts/Lock.sol/Lock.json'), JSON.stringify(compileFixtureArtifact('Lock.sol', 'Lock')));
  return dir;
}

interface Run { readonly wallMs: number; readonly runnerMs: number }
/** Where the suite runs: a peer over HTTP, or without a URL Hardhat's in-process network. */
interface Target { readonly name: string; readonly url?: string }

function runSuite(dir: string, target: Target, repeat = REPEAT): Run {
  const started = performance.now();
  const network = target.url ? { args: ['--network', 'mmnode'], env: { MMNODE_URL: target.url } } : { args: [], env: {} };
  const r = spawnSync(NODE_BIN, [HARDHAT_CLI, 'test', 'nodejs', '--no-compile', ...network.args], {
    cwd: dir, env: { ...process.env, ...network.env, LOCK_ROUNDS: String(repeat), HARDHAT_DISABLE_TELEMETRY: 'true' }, encoding: 'utf8', timeout: 120_000,
  });
  const wallMs = performance.now() - started;
  const out = `${r.stdout}${r.stderr}`;
  const passing = /(\d+) passing \((\d+)ms\)/.exec(out);
  if (r.status !== 0 || !passing || Number(passing[1]) !== TESTS_PER_ROUND * repeat) throw new Error(`the suite did not pass on ${target.name}:\n${out.slice(Math.max(0, out.indexOf(' failing') - 200), 4000)}`);
  return { wallMs, runnerMs: Number(passing[2]) };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const log = (msg: string) => console.error(`[bench:hardhat-suite] ${msg}`);

const loadAtStart = loadavg()[0]!;
const project = makeProject();
const keys = SENDER_KEYS.map((k) => bytesToHex(k));
const peers: Peer[] = [];
const runs = new Map<Name, Run[]>(selected.map((n) => [n, []]));
try {
  // One untimed run on Hardhat's in-process network before any peer starts: a client's first run on a machine reads
  // Hardhat's, viem's and the test runner's files from disk and compiles them, 0.3 to 1.6 s more, which the first
  // peer's first round would otherwise pay for the client (docs/performance.md "A real Hardhat suite").
  log('warming the client (one untimed run on Hardhat\'s in-process network)');
  runSuite(project, { name: "Hardhat's in-process network" }, 1);
  for (const name of selected) {
    log(`starting ${name}`);
    const peer = await startPeer(name, { chainId: CHAIN_ID, keys, balanceWei: GENESIS_BALANCE, mmnodeArgs: MMNODE_ARGS });
    peers.push(peer);
    // The fixture's unlock time is a year after the latest block: past mmnode's regtest genesis, timestamped 0
    // (docs/rpc-compatibility.md "Time"), a block carries the current time. The others start their chain now.
    await rpc(peer.url, 'evm_mine', []);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const peer of peers) {
      log(`round ${round}: ${peer.name}`);
      runs.get(peer.name as Name)!.push(runSuite(project, peer));
    }
  }
} finally {
  for (const p of peers) await p.stop();
  rmSync(project, { recursive: true, force: true });
}

console.log(`\n$ BENCH_SUITE_PEERS=${selected.join(',')} BENCH_SUITE_ROUNDS=${ROUNDS} BENCH_SUITE_REPEAT=${REPEAT} npm run bench:hardhat-suite`);
console.log(`node ${process.version}, ${cpus().length} cores; 1-min load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at the end`);
for (const p of peers) console.log(`  ${p.name.padEnd(8)} ${p.command}`);
console.log(`\nA Hardhat 3 suite of ${TESTS_PER_ROUND * REPEAT} tests (hardhat-viem, network helpers, loadFixture), median of ${ROUNDS} rounds taken in turn (ms)`);
console.log(`${''.padEnd(34)}${selected.map((n) => n.padStart(12)).join('')}`);
const row = (label: string, pick: (r: Run) => number) =>
  console.log(`${label.padEnd(34)}${selected.map((n) => median(runs.get(n)!.map(pick)).toFixed(0).padStart(12)).join('')}`);
row('whole run (hardhat test nodejs)', (r) => r.wallMs);
row('test runner duration', (r) => r.runnerMs);
// Round 1 is each peer's first run after it started (docs/performance.md, "A whole test run on a fresh node").
console.log(`${'first round: test runner duration'.padEnd(34)}${selected.map((n) => runs.get(n)![0]!.runnerMs.toFixed(0).padStart(12)).join('')}`);
const of = (n: Name, pick: (rs: Run[]) => number) => runs.has(n) ? pick(runs.get(n)!) : undefined;
const speed = (label: string, pick: (rs: Run[]) => number) => {
  const [ours, theirs] = [of('mmnode', pick), of('hardhat', pick)];
  if (ours && theirs) console.log(`mmnode / Hardhat 3 speed (${label}): ${(theirs / ours).toFixed(2)}×`);
};
console.log('');
speed('test runner duration', (rs) => median(rs.map((r) => r.runnerMs)));
speed('first round', (rs) => rs[0]!.runnerMs);

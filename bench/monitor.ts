/**
 * What --metrics-port costs: eth_blockNumber and eth_getBalance at concurrency 32 on a node process
 * with the metrics port and on one without, in alternating rounds (median of 5): requests per second,
 * and the node's CPU time per request (from /proc, so less swayed than throughput by other work on a
 * shared machine); then the time to answer GET /metrics and GET /status.json. Prints figures; asserts nothing.
 */
import { rmSync } from 'node:fs';
import { startNodeProcess, type NodeProcess } from '../testnet/launch.ts';
import { tempDir } from '../test/helpers/node.ts';
import { runLoad } from './load.ts';
import { cpuMs } from './cpu.ts';

const ROUNDS = 5;
const SECONDS = 4;
const dirs = [tempDir('mmnode-bench-'), tempDir('mmnode-bench-')];
const common = ['--rpc-port', '0', '--p2p-port', '0', '--quiet', '--log-level', 'warn'];
const plain = await startNodeProcess(['--data-dir', dirs[0]!, ...common]);
const metered = await startNodeProcess(['--data-dir', dirs[1]!, ...common, '--metrics-port', '0']);
const metricsUrl = metered.ready.metricsUrl!;

const workloads = {
  eth_blockNumber: () => '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}',
  eth_getBalance: () => '{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":["0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826","latest"]}',
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = (node: NodeProcess, body: () => string) =>
  runLoad(node.ready.rpcUrl, { concurrency: 32, seconds: SECONDS, body, ok: (t) => t.includes('"result"') });
/** User and system CPU seconds the node process has used. */
const cpuSeconds = (node: NodeProcess) => cpuMs(node.child.pid!) / 1000;
/** Requests per second and CPU microseconds per request of one round. */
async function round(node: NodeProcess, body: () => string): Promise<[number, number]> {
  const cpu = cpuSeconds(node);
  const r = await load(node, body);
  return [r.perSecond, ((cpuSeconds(node) - cpu) * 1e6) / r.ok];
}

/** Milliseconds per GET of `path`, p50 and p99 of `n`, one at a time. */
async function timeGets(path: string, n: number): Promise<[number, number]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await (await fetch(`${metricsUrl}${path}`)).text();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return [times[Math.floor(n / 2)]!, times[Math.floor(n * 0.99)]!];
}

try {
  for (const [name, body] of Object.entries(workloads)) {
    const off: [number, number][] = [];
    const on: [number, number][] = [];
    for (let r = 0; r < ROUNDS; r++) {
      off.push(await round(plain, body));
      on.push(await round(metered, body));
    }
    const rate = (rs: [number, number][]) => median(rs.map((x) => x[0]));
    const cpu = (rs: [number, number][]) => median(rs.map((x) => x[1]));
    const change = (a: number, b: number) => `${b >= a ? '+' : ''}${((b / a - 1) * 100).toFixed(1)} %`;
    console.log(`${name}: without --metrics-port ${Math.round(rate(off))}/s, ${cpu(off).toFixed(1)} µs CPU per request; `
      + `with it ${Math.round(rate(on))}/s (${change(rate(off), rate(on))}), ${cpu(on).toFixed(1)} µs (${change(cpu(off), cpu(on))})`);
  }
  const [scrapeIdle50, scrapeIdle99] = await timeGets('/metrics', 100);
  const [statusIdle50, statusIdle99] = await timeGets('/status.json', 100);
  const busy = load(metered, workloads.eth_getBalance);
  const [scrapeBusy50, scrapeBusy99] = await timeGets('/metrics', 50);
  await busy;
  console.log(`GET /metrics: p50 ${scrapeIdle50.toFixed(1)} ms, p99 ${scrapeIdle99.toFixed(1)} ms idle; p50 ${scrapeBusy50.toFixed(1)} ms, p99 ${scrapeBusy99.toFixed(1)} ms under the read load`);
  console.log(`GET /status.json: p50 ${statusIdle50.toFixed(1)} ms, p99 ${statusIdle99.toFixed(1)} ms idle`);
} finally {
  for (const n of [plain, metered]) { n.child.kill('SIGTERM'); await n.exited; }
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
}

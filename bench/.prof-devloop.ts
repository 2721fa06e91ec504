// scratch, not committed
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import { NODE_RUNTIME_FLAGS } from '../src/config.ts';
import { buildNodeBundle } from '../testnet/launch.ts';
import { rpc } from './load.ts';
import { RECIPIENTS, SENDER_KEYS, sendAndWait, setupPeer, signLegacy, transferData, type Hex } from './workloads.ts';
const N = Number(process.env.N ?? 1500);
const dataDir = mkdtempSync(join(tmpdir(), 'wt22prof-'));
const extra = (process.env.NODEFLAGS ?? '').split(' ').filter(Boolean);
const child = spawn(process.execPath, [...NODE_RUNTIME_FLAGS, ...extra, buildNodeBundle(), '--data-dir', dataDir, '--rpc-port', '0', '--p2p-port', '0', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
let out = '';
const url: string = await new Promise((r) => child.stdout!.on('data', (d) => { out += d; const l = out.split('\n').find((x) => x.startsWith('{"ready"')); if (l) r(JSON.parse(l).rpcUrl); }));
const { token } = await setupPeer(url);
const KEY = SENDER_KEYS[1]!;
let nonce = BigInt(await rpc(url, 'eth_getTransactionCount', [bytesToHex(privateToAddress(KEY)), 'latest']));
const kind = process.env.KIND ?? 'value';
const lat: number[] = [];
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const to = RECIPIENTS[i % 64]!;
  const f = kind === 'value' ? { to, value: 1n, gasLimit: 21000n } : { to: token, data: transferData(to, 1n), gasLimit: 80000n };
  const raw = bytesToHex(signLegacy(KEY, { nonce: nonce++, ...f })) as Hex;
  const a = performance.now();
  await sendAndWait(url, raw);
  lat.push(performance.now() - a);
}
const s = (performance.now() - t0) / 1000;
lat.sort((a, b) => a - b);
console.log(`${kind}: ${N / s | 0} tx/s p50 ${lat[N >> 1]!.toFixed(2)} p99 ${lat[Math.floor(N * 0.99)]!.toFixed(2)}`);
child.kill('SIGINT');
await new Promise((r) => child.once('exit', r));

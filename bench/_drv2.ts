import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { rpc } from './load.ts';
import { balanceOfData, SENDER_KEYS, setupPeer, type Hex } from './workloads.ts';
const url = process.env.URL!; const pid = process.env.NODE_PID!;
const { token } = await setupPeer(url);
const SENDER = bytesToHex(privateToAddress(SENDER_KEYS[1]!)) as Hex;
const threads = () => { const r: Record<string, number> = {}; for (const t of readdirSync(`/proc/${pid}/task`)) { const st = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8'); const name = readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim(); const f = st.slice(st.lastIndexOf(')') + 2).split(' '); r[`${name}:${t}`] = (Number(f[11]) + Number(f[12])) * 10; } return r; };
const call = () => rpc(url, 'eth_call', [{ to: token, data: balanceOfData(SENDER) }, 'latest']);
for (let i = 0; i < 300; i++) await call();
const N = 6000;
for (const m of ["call"]) {
  const a = threads(); const t = performance.now();
  for (let i = 0; i < N; i++) m === 'call' ? await call() : await rpc(url, 'eth_blockNumber', []);
  const ms = performance.now() - t; const b = threads();
  console.log(m, 'latency', (ms / N * 1000).toFixed(0), 'µs; CPU µs/req by thread:', Object.entries(b).map(([k, v]) => [k, ((v - (a[k] ?? 0)) / N * 1000)]).filter(([, v]) => (v as number) > 5).map(([k, v]) => `${k}=${(v as number).toFixed(0)}`).join(' '));
}

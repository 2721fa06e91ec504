import { bytesToHex } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
const pid = process.env.NODE_PID!;
const threads = () => { const r: Record<string, number> = {}; for (const t of readdirSync(`/proc/${pid}/task`)) { const st = readFileSync(`/proc/${pid}/task/${t}/stat`, 'utf8'); const name = readFileSync(`/proc/${pid}/task/${t}/comm`, 'utf8').trim(); const f = st.slice(st.lastIndexOf(')') + 2).split(' '); r[`${name}:${t}`] = (Number(f[11]) + Number(f[12])) * 10; } return r; };
const self = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
import { RECIPIENTS, SENDER_KEYS, sendAndWait, setupPeer, signLegacy, transferData, type Hex } from './workloads.ts';
const url = process.env.URL!;
const { token, nonces } = await setupPeer(url);
const KEY = SENDER_KEYS[1]!; let nonce = nonces[1]!;
const kind = process.env.KIND ?? 'value'; const N = Number(process.env.N ?? 2000);
const tx = (i: number) => bytesToHex(kind === 'value' ? signLegacy(KEY, { nonce: nonce++, to: RECIPIENTS[i % 64], value: 1n, gasLimit: 21000n }) : signLegacy(KEY, { nonce: nonce++, to: token, data: transferData(RECIPIENTS[i % 64]!, 1n), gasLimit: 100000n })) as Hex;
for (let i = 0; i < 200; i++) await sendAndWait(url, tx(i));
for (let r = 0; r < Number(process.env.ROUNDS ?? 1); r++) {
  const t = performance.now(); const a = threads(); const c0 = self();
  for (let i = 0; i < N; i++) await sendAndWait(url, tx(i));
  const b = threads(); const c1 = self();
  console.log(kind, (N / (performance.now() - t) * 1000).toFixed(0), 'tx/s; client CPU µs/tx', ((c1 - c0) / N * 1000).toFixed(0), '; node CPU µs/tx:', Object.entries(b).map(([k, v]) => [k, ((v - (a[k] ?? 0)) / N * 1000)]).filter(([, v]) => (v as number) > 5).map(([k, v]) => `${k}=${(v as number).toFixed(0)}`).join(' '));
}

import { bytesToHex, privateToAddress } from '@ethereumjs/util';
import { performance } from 'node:perf_hooks';
import { rpc } from './load.ts';
import { balanceOfData, RECIPIENTS, SENDER_KEYS, sendAndWait, setupPeer, signLegacy, transferData, type Hex } from './workloads.ts';
const url = process.env.URL!;
const { token, nonces } = await setupPeer(url);
const KEY = SENDER_KEYS[1]!; const SENDER = bytesToHex(privateToAddress(KEY)) as Hex;
let nonce = nonces[1]!;
const call = () => rpc(url, 'eth_call', [{ to: token, data: balanceOfData(SENDER) }, 'latest']);
const est = () => rpc(url, 'eth_estimateGas', [{ from: SENDER, to: token, data: transferData(RECIPIENTS[0]!, 1n) }]);
const p50 = (a: number[]) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]!.toFixed(3); };
for (let round = 0; round < 3; round++) {
  const after: number[] = [], again: number[] = [], estAfter: number[] = [], estAgain: number[] = [];
  for (let i = 0; i < 300; i++) {
    await sendAndWait(url, bytesToHex(signLegacy(KEY, { nonce: nonce++, to: RECIPIENTS[i % 64], value: 1n, gasLimit: 21000n })) as Hex);
    let t = performance.now();
    if (i % 2) { await call(); after.push(performance.now() - t); t = performance.now(); await call(); again.push(performance.now() - t); }
    else { await est(); estAfter.push(performance.now() - t); t = performance.now(); await est(); estAgain.push(performance.now() - t); }
  }
  const bn: number[] = []; for (let i = 0; i < 300; i++) { const t = performance.now(); await rpc(url, 'eth_blockNumber', []); bn.push(performance.now() - t); }
  const bal: number[] = []; for (let i = 0; i < 300; i++) { const t = performance.now(); await rpc(url, 'eth_getBalance', [SENDER, 'latest']); bal.push(performance.now() - t); }
  console.log(`blockNumber ${p50(bn)} getBalance ${p50(bal)}`);
  console.log(`call after block ${p50(after)} again ${p50(again)} | estimate after ${p50(estAfter)} again ${p50(estAgain)}`);
}

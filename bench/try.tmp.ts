import { bytesToHex } from '@ethereumjs/util';
import { runCallsWithWorkers } from './heavy.ts';
import { CHAIN_ID, GENESIS_BALANCE, SENDER_KEYS } from './workloads.ts';
const opts = { chainId: CHAIN_ID, keys: SENDER_KEYS.map((k) => bytesToHex(k)), balanceWei: GENESIS_BALANCE };
for (const n of [1, 2, 4]) { const r = await runCallsWithWorkers(opts, n, 5, 32); console.log(n, Math.round(r.perSecond), r.p50Ms.toFixed(1), r.p99Ms.toFixed(1), r.errors); }

import { bytesToHex } from '@ethereumjs/util';
import { runHeavy } from './heavy.ts';
import { CHAIN_ID, GENESIS_BALANCE, SENDER_KEYS } from './workloads.ts';
const opts = { chainId: CHAIN_ID, keys: SENDER_KEYS.map((k) => bytesToHex(k)), balanceWei: GENESIS_BALANCE };
const t = Date.now();
console.log(JSON.stringify(await runHeavy(opts, (m) => console.error(`[${((Date.now() - t) / 1000).toFixed(0)} s] ${m}`))));

/**
 * `npm run bench:sync-import`: what block sync's run length costs the chain (docs/network.md "Sync
 * figures"). BENCH_IMPORT_BLOCKS (5,000) blocks with a transfer each are built in-process, then
 * imported into fresh stores as a late joiner's chain actor imports them (ChainWriter.importRun), in
 * runs of 128 blocks (one batch) and of 384 (the longest run of a download), alternately, three
 * times each. Senders are recovered beforehand, as the sync's worker thread does; the figure is the
 * import's CPU time on the main thread per block, the bound of a sync when a core is free.
 */
import { RLP } from '@ethereumjs/rlp';
import { createLegacyTx } from '@ethereumjs/tx';
import { RUN_BLOCKS, SYNC_BATCH } from '../src/actors/blockSync/download.ts';
import { blockFromFields, encodeBlock, type Block } from '../src/chain/codec/block.ts';
import { createChainCommon } from '../src/chain/execution/common.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../src/chain/execution/networks.ts';
import { openTestChain } from '../test/helpers/chain.ts';

const BLOCKS = Number(process.env.BENCH_IMPORT_BLOCKS ?? 5_000);
const ROUNDS = 3;
const common = createChainCommon(NETWORKS.regtest);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mainThreadMs = () => { const u = process.threadCpuUsage(); return (u.user + u.system) / 1000; };

const source = await openTestChain();
const raws: Uint8Array[] = [];
const key = DEV_ACCOUNTS[0]!.privateKey;
for (let nonce = 0n; raws.length < BLOCKS; nonce++) {
  const tx = createLegacyTx({ nonce, to: DEV_ACCOUNTS[1]!.address, value: 1n, gasLimit: 21_000n, gasPrice: 0n }, { common }).sign(key);
  const t = await source.writer.build({ coinbase: NETWORKS.regtest.defaultCoinbase, txs: [tx], timestamp: 0n, minimumGasPriceTarget: 0n });
  const block = await source.sealed(t);
  if ((await source.writer.import(block)).result !== 'IMPORTED_BEST') throw new Error(`block ${block.header.number} not imported`);
  raws.push(encodeBlock(block));
}
await source.close();

/** The blocks as a download hands them over: decoded from their bytes, senders recovered. */
function received(): Block[] {
  const blocks = raws.map((raw) => blockFromFields(RLP.decode(raw), common));
  for (const b of blocks) for (const tx of b.txs) tx.getSenderPublicKey();
  return blocks;
}

async function importInRuns(length: number): Promise<{ mainMs: number; wallMs: number }> {
  const joiner = await openTestChain();
  const blocks = received();
  let mainMs = 0;
  const started = performance.now();
  for (let i = 0; i < blocks.length; i += length) {
    const before = mainThreadMs();
    const outcomes = await joiner.writer.importRun(blocks.slice(i, i + length));
    mainMs += mainThreadMs() - before;
    const bad = outcomes.find((o) => o.result !== 'IMPORTED_BEST');
    if (bad) throw new Error(`block ${bad.block.header.number}: ${bad.reason ?? bad.result}`);
  }
  const wallMs = performance.now() - started;
  await joiner.close();
  return { mainMs, wallMs };
}

const lengths = [SYNC_BATCH, RUN_BLOCKS];
const results = new Map<number, { mainMs: number; wallMs: number }[]>(lengths.map((l) => [l, []]));
for (let round = 0; round < ROUNDS; round++) for (const length of lengths) results.get(length)!.push(await importInRuns(length));
console.log(`command: npm run bench:sync-import (BENCH_IMPORT_BLOCKS=${BLOCKS}), ${ROUNDS} rounds, run lengths alternating`);
for (const [length, rs] of results) {
  const main = rs.map((r) => r.mainMs / BLOCKS);
  console.log(`runs of ${length} blocks: main thread ${median(main).toFixed(3)} ms/block (median; ${main.map((m) => m.toFixed(3)).join(', ')}), wall ${(median(rs.map((r) => r.wallMs)) / BLOCKS).toFixed(3)} ms/block`);
}
console.log(`load average ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

/**
 * `npm run miner -- --rpc http://127.0.0.1:4444`: a parent-chain pool simulator. It speaks only
 * JSON-RPC: polls mnr_getWork, builds a parent block (tagged coinbase plus other transactions),
 * solves it against the target, submits it with the chosen mnr_submit* method and reports its hash
 * rate with eth_submitHashrate. Ctrl-C stops it cleanly.
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { meetsTarget, merkleBranch, reverseBytes, serializeParentHeader } from '../mergedmining/index.ts';
import { blockBytes, poolBlock, type PoolBlock } from './parentBlock.ts';

const USAGE = `Usage: npm run miner -- [--rpc URL] [--submit block|transactions|partial-merkle] [--other-txs N] [--blocks N]`;

const { values } = parseArgs({
  options: {
    rpc: { type: 'string', default: 'http://127.0.0.1:4444' },
    submit: { type: 'string', default: 'block' },
    'other-txs': { type: 'string', default: '3' },
    blocks: { type: 'string' },
    'poll-ms': { type: 'string', default: '200' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) { console.log(USAGE); process.exit(0); }
const submitMode = values.submit!;
if (!['block', 'transactions', 'partial-merkle'].includes(submitMode)) { console.error(USAGE); process.exit(2); }
const otherTxs = Number(values['other-txs']);
const maxBlocks = values.blocks === undefined ? Infinity : Number(values.blocks);
const pollMs = Number(values['poll-ms']);
const clientId = `0x${randomBytes(32).toString('hex')}`;

let requestId = 0;
async function rpc<T>(method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(values.rpc!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: ++requestId, method, params }) });
  const body = await res.json() as { result?: T; error?: { code: number; message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.code} ${body.error.message}`);
  return body.result as T;
}

interface Work { blockHashForMergedMining: string; target: string; parentBlockHash: string }

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

function submission(b: PoolBlock, nonce: number): [string, unknown[]] {
  const header = hex(serializeParentHeader({ ...b.block.header, nonce }));
  const blockHash = hex(reverseBytes(new Uint8Array(32)));
  switch (submitMode) {
    case 'transactions':
      return ['mnr_submitBitcoinBlockTransactions', [blockHash, header, hex(b.coinbase), b.txids.map((t) => hex(reverseBytes(t))).join(' ')]];
    case 'partial-merkle': {
      // Coinbase txid, then its siblings bottom-up, raw order (docs/merged-mining.md "Submissions").
      const branch = merkleBranch(b.txids, 0);
      return ['mnr_submitBitcoinBlockPartialMerkle', [blockHash, header, hex(b.coinbase), [b.txids[0]!, ...branch].map(hex).join(' '), b.txids.length.toString(16)]];
    }
    default:
      return ['mnr_submitBitcoinBlock', [hex(blockBytes(b, nonce))]];
  }
}

let stopping = false;
process.on('SIGINT', () => { stopping = true; });
process.on('SIGTERM', () => { stopping = true; });

let mined = 0;
let hashes = 0;
let windowStart = Date.now();
let extraNonce = 0;
console.log(`miner: ${values.rpc}, submitting with ${submitMode}, ${otherTxs} other transactions per parent block`);
while (!stopping && mined < maxBlocks) {
  let work: Work;
  try {
    work = await rpc<Work>('mnr_getWork');
  } catch (err) {
    console.error(`miner: ${(err as Error).message}; retrying`);
    await new Promise((r) => setTimeout(r, 1_000));
    continue;
  }
  const target = BigInt(work.target);
  const b = poolBlock(Buffer.from(work.blockHashForMergedMining.slice(2), 'hex'), otherTxs, extraNonce++);
  const header = serializeParentHeader(b.block.header);
  const view = new DataView(header.buffer, header.byteOffset);
  let solved: number | undefined;
  const deadline = Date.now() + pollMs;
  for (let nonce = 0; nonce < 2 ** 32 && Date.now() < deadline; nonce++) {
    view.setUint32(76, nonce, true);
    hashes++;
    if (meetsTarget(header, target)) { solved = nonce; break; }
  }
  if (solved !== undefined) {
    const [method, params] = submission(b, solved);
    try {
      const info = await rpc<{ blockImportedResult: string; blockHash: string; blockIncludedHeight: string }>(method, params);
      mined++;
      console.log(`miner: block #${BigInt(info.blockIncludedHeight)} ${info.blockHash} ${Buffer.from(info.blockImportedResult.slice(2), 'hex').toString()}`);
    } catch (err) {
      console.error(`miner: ${(err as Error).message}`);
    }
  }
  if (Date.now() - windowStart >= 1_000) {
    const rate = BigInt(Math.round((hashes * 1000) / (Date.now() - windowStart)));
    await rpc('eth_submitHashrate', [`0x${rate.toString(16).padStart(64, '0')}`, clientId]).catch(() => {});
    hashes = 0;
    windowStart = Date.now();
  }
}
console.log(`miner: stopped after ${mined} blocks`);

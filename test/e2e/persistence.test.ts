/** Restart and crash safety: a clean stop and a SIGKILL mid-stream both resume at a consistent head. */
import { bytesToHex } from '@ethereumjs/util';
import { ethers } from 'ethers';
import { rmSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ZERO_HASH } from '../../src/chain/codec/bytes.ts';
import { executeBlock } from '../../src/chain/execution/blockRunner.ts';
import { startChildNode, startTestNode, tempDir } from '../helpers/node.ts';
import { rpc, waitUntil } from '../helpers/rpc.ts';

const KEYS = [
  '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  '0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d',
  '0x1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75',
];
const TO = '0x09a1eda29f664ac8f68106f6567276df0c65d859';

const signTransfers = (key: string, count: number, value = 1n) => {
  const wallet = new ethers.Wallet(key);
  return Promise.all(Array.from({ length: count }, (_, nonce) =>
    wallet.signTransaction({ to: TO, value, nonce, gasLimit: 21_000, gasPrice: 0, chainId: 33 })));
};

const Persistence = suite('persistence');

Persistence('a clean stop and restart resumes at the same head with the same state', async () => {
  const dataDir = tempDir();
  try {
    const first = await startTestNode({ dataDir });
    for (const raw of await signTransfers(KEYS[0]!, 3)) await rpc(first.url, 'eth_sendRawTransaction', [raw]);
    await waitUntil(async () => (await rpc(first.url, 'eth_getTransactionCount', [new ethers.Wallet(KEYS[0]!).address, 'latest'])) === '0x3', { what: 'three transfers mined' });
    const head = await rpc(first.url, 'eth_getBlockByNumber', ['latest', false]);
    const balance = await rpc(first.url, 'eth_getBalance', [TO, 'latest']);
    await first.stop({ keepData: true });

    const second = await startTestNode({ dataDir });
    const resumed = await rpc(second.url, 'eth_getBlockByNumber', ['latest', false]);
    assert.is(resumed.hash, head.hash);
    assert.is(await rpc(second.url, 'eth_getBalance', [TO, 'latest']), balance);
    // and it keeps going from there
    const [raw] = await signTransfers(KEYS[1]!, 1);
    const hash = await rpc(second.url, 'eth_sendRawTransaction', [raw]);
    const receipt = await waitUntil(() => rpc(second.url, 'eth_getTransactionReceipt', [hash]), { what: 'receipt after restart' });
    assert.is(BigInt(receipt.blockNumber), BigInt(head.number) + 1n);
    await second.stop({ keepData: true });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

Persistence('kill -9 while transactions stream in leaves a consistent store', async () => {
  const dataDir = tempDir();
  try {
    const child = await startChildNode(dataDir);
    const streams = await Promise.all(KEYS.map((k) => signTransfers(k, 60)));
    let sent = 0;
    let stop = false;
    const senders = streams.map(async (raws) => {
      for (const raw of raws) {
        if (stop) return;
        await rpc(child.url, 'eth_sendRawTransaction', [raw]).then(() => { sent++; }, () => {});
      }
    });
    // Kill once blocks are being written, in the middle of the stream.
    await waitUntil(async () => BigInt(await rpc(child.url, 'eth_blockNumber')) >= 5n && sent > 40, { what: 'some blocks mined', timeoutMs: 20_000 });
    child.child.kill('SIGKILL');
    stop = true;
    assert.is(await child.exited, 'SIGKILL');
    await Promise.all(senders);

    const node = await startTestNode({ dataDir });
    try {
      const { reader } = node.node;
      const head = reader.head();
      assert.ok(head.number >= 5n, `head #${head.number} survived`);
      // Every canonical block's parent exists, and every transaction is indexed to its block.
      let txCount = 0;
      for (let n = head.number; n >= 0n; n--) {
        const block = await reader.canonicalBlock(n);
        assert.ok(block, `canonical block ${n} exists`);
        if (n > 0n) assert.ok(await reader.getHeader(block!.header.parentHash), `parent of ${n} exists`);
        const receipts = await reader.getReceipts(block!.hash);
        assert.is(receipts?.length, block!.txs.length);
        for (const [i, tx] of block!.txs.entries()) {
          const loc = await reader.txLocation(tx.hash());
          assert.is(loc && bytesToHex(loc.blockHash), bytesToHex(block!.hash));
          assert.is(loc!.index, i);
          txCount++;
        }
      }
      assert.ok(txCount > 0);
      // The head's state root matches a re-execution of the head block on its parent's state.
      const block = (await reader.getBlock(head.hash))!;
      const parent = (await reader.getHeader(block.header.parentHash))!;
      const h = block.header;
      const exec = await executeBlock(
        { common: reader.common, trieDb: reader.trieDb, blockHash: async (n) => (await reader.canonicalHash(n)) ?? ZERO_HASH },
        parent.stateRoot,
        { number: h.number, timestamp: h.timestamp, coinbase: h.coinbase, gasLimit: h.gasLimit, difficulty: h.difficulty, prevRandao: h.parentHash, minimumGasPrice: h.minimumGasPrice },
        block.txs, 'verify');
      assert.is(bytesToHex(exec.stateRoot), bytesToHex(h.stateRoot));
      // The node serves and mines after the crash.
      const [raw] = await signTransfersFrom(node.url);
      const hash = await rpc(node.url, 'eth_sendRawTransaction', [raw]);
      await waitUntil(() => rpc(node.url, 'eth_getTransactionReceipt', [hash]), { what: 'a receipt after the crash' });
    } finally {
      await node.stop({ keepData: true });
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

Persistence('under automine, a receipt answered right after its send survives a kill -9 that follows it', async () => {
  const dataDir = tempDir();
  try {
    const child = await startChildNode(dataDir);
    const before = BigInt(await rpc(child.url, 'eth_getBalance', [TO, 'latest']));
    // A test suite's loop: send, read the receipt, send the next; the node dies right after the last receipt.
    const answered: { hash: string; blockHash: string }[] = [];
    for (const raw of await signTransfers(KEYS[0]!, 20)) {
      const hash = await rpc<string>(child.url, 'eth_sendRawTransaction', [raw]);
      const receipt = await rpc(child.url, 'eth_getTransactionReceipt', [hash]);
      assert.ok(receipt, `the first receipt request after the send of ${hash} finds it`);
      answered.push({ hash, blockHash: receipt.blockHash });
    }
    child.child.kill('SIGKILL');
    assert.is(await child.exited, 'SIGKILL');

    const node = await startChildNode(dataDir);
    try {
      for (const { hash, blockHash } of answered) {
        const receipt = await rpc(node.url, 'eth_getTransactionReceipt', [hash]);
        assert.is(receipt?.blockHash, blockHash, `the receipt of ${hash} survived`);
      }
      assert.is(BigInt(await rpc(node.url, 'eth_getBalance', [TO, 'latest'])), before + 20n);
    } finally {
      node.child.kill('SIGTERM');
      await node.exited;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** A transfer from a dev account not used by the stream, at its current nonce. */
async function signTransfersFrom(url: string): Promise<string[]> {
  const wallet = new ethers.Wallet('0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4');
  const nonce = Number(await rpc(url, 'eth_getTransactionCount', [wallet.address, 'pending']));
  return [await wallet.signTransaction({ to: TO, value: 7n, nonce, gasLimit: 21_000, gasPrice: 0, chainId: 33 })];
}

Persistence.run();

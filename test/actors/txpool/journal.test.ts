/**
 * The pool's journal: transactions accepted before a kill -9 are admitted again at the restart and
 * mined; ones dropped unmined stay out; the file is batched per turn, survives a torn last line, and
 * is rewritten once mostly dead, so it stays bounded.
 */
import { ethers } from 'ethers';
import { appendFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { TxJournal } from '../../../src/actors/txpool/journal.ts';
import { keccak256 } from '../../../src/chain/codec/keccak.ts';
import { startChildNode, tempDir } from '../../helpers/node.ts';
import { rpc, waitUntil } from '../../helpers/rpc.ts';

const Journal = suite('transaction journal');
const TO = '0x09a1eda29f664ac8f68106f6567276df0c65d859';
const wallets = [
  '0x0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  '0x88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d',
].map((k) => new ethers.Wallet(k));
const transfer = (w: ethers.Wallet, nonce: number, gasPrice = 0) => w.signTransaction({ to: TO, value: 1n, nonce, gasLimit: 21_000, gasPrice, chainId: 33 });
const hashOf = (raw: string) => ethers.keccak256(raw);

Journal('transactions accepted right before a kill -9 are mined after the restart; a queued one waits, a replaced one stays out', async () => {
  const dataDir = tempDir();
  try {
    const first = await startChildNode(dataDir, ['--no-mining']);
    const raws = (await Promise.all(wallets.map((w) => Promise.all(Array.from({ length: 20 }, (_, n) => transfer(w, n)))))).flat();
    const replaced = await transfer(wallets[0]!, 20, 1);
    const replacement = await transfer(wallets[0]!, 20, 2);
    const queued = await transfer(wallets[1]!, 25);
    const accepted: string[] = [];
    for (let i = 0; i < raws.length; i += 10) {
      const batch = raws.slice(i, i + 10).map((raw, j) => ({ jsonrpc: '2.0', id: j, method: 'eth_sendRawTransaction', params: [raw] }));
      const res = await fetch(first.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(batch) });
      for (const r of await res.json() as { result: string }[]) accepted.push(r.result);
    }
    for (const raw of [replaced, replacement, queued]) accepted.push(await rpc(first.url, 'eth_sendRawTransaction', [raw]));
    first.child.kill('SIGKILL');
    assert.is(await first.exited, 'SIGKILL');
    assert.equal(accepted, [...raws, replaced, replacement, queued].map(hashOf));

    const second = await startChildNode(dataDir);
    try {
      for (const hash of [...raws, replacement].map(hashOf)) {
        const receipt = await waitUntil(() => rpc(second.url, 'eth_getTransactionReceipt', [hash]), { what: `receipt of ${hash}` });
        assert.is(receipt.status, '0x1');
      }
      assert.is(await rpc(second.url, 'eth_getTransactionReceipt', [hashOf(replaced)]), null);
      assert.equal(await rpc(second.url, 'txpool_status'), { pending: 0, queued: 1 });
      assert.is((await rpc(second.url, 'eth_getTransactionByHash', [hashOf(queued)])).blockHash, null);
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

Journal('transactions the pool dropped (a rewind cleared them) do not come back after a kill -9', async () => {
  const dataDir = tempDir();
  try {
    const first = await startChildNode(dataDir, ['--no-mining']);
    const hash = await rpc(first.url, 'eth_sendRawTransaction', [await transfer(wallets[0]!, 0)]);
    await rpc(first.url, 'evm_mine');
    const dropped = await rpc(first.url, 'eth_sendRawTransaction', [await transfer(wallets[0]!, 1)]);
    await rpc(first.url, 'evm_revert', [await rpc(first.url, 'evm_snapshot')]);
    assert.is(await rpc(first.url, 'evm_reset'), null);
    first.child.kill('SIGKILL');
    assert.is(await first.exited, 'SIGKILL');
    const again = await startChildNode(dataDir, ['--no-mining']);
    try {
      assert.equal(await rpc(again.url, 'txpool_status'), { pending: 0, queued: 0 });
      for (const h of [hash, dropped]) assert.is(await rpc(again.url, 'eth_getTransactionByHash', [h]), null);
    } finally {
      again.child.kill('SIGKILL');
      await again.exited;
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

Journal('the file: one write per turn, forgotten and torn lines skipped, rewritten once mostly dead', async () => {
  const dir = tempDir();
  const path = join(dir, 'txpool.journal');
  const journal = new TxJournal(path);
  const raw = (i: number) => Buffer.from(`f8${i.toString(16).padStart(6, '0')}aa`, 'hex');
  const hash = (i: number) => `0x${Buffer.from(keccak256(raw(i))).toString('hex')}`;
  const writes = Array.from({ length: 5 }, (_, i) => journal.append(raw(i)));
  assert.ok(writes.every((w) => w === writes[0]), 'one write for the turn');
  await writes[0];
  journal.forget(hash(1));
  await journal.append(raw(5));
  appendFileSync(path, 'f8000'); // a crash in the middle of a line
  assert.equal(new TxJournal(path).read().map((r) => Buffer.from(r).toString('hex')), [0, 2, 3, 4, 5].map((i) => raw(i).toString('hex')));

  for (let i = 6; i < 3_000; i++) journal.forget(hash(i));
  journal.compact(() => [raw(0), raw(2)], 2);
  assert.equal(readFileSync(path, 'latin1').split('\n').filter(Boolean), [raw(0).toString('hex'), raw(2).toString('hex')], 'rewritten with the live ones');
  journal.forget(hash(0));
  journal.compact(() => [raw(2)], 1);
  await journal.append(raw(7));
  assert.ok(statSync(path).size < 200, 'a few dead lines are not worth a rewrite');
  void journal.append(raw(8));
  journal.clear();
  assert.is(statSync(path).size, 0, 'cleared, the line still waiting included');
  await journal.append(raw(9));
  assert.equal(new TxJournal(path).read().map((r) => Buffer.from(r).toString('hex')), [raw(9).toString('hex')], 'appends go on after a clear');
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

Journal.run();

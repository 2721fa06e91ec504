/**
 * A transaction's own logs (txLogEntries, what a receipt formats) against a real chain: the same
 * entries, positions included, as the block's logs filtered to that transaction.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { blockLogEntries, txLogEntries } from '../../../src/chain/logs/logFilter.ts';
import { openTestChain, type TestChain } from '../../helpers/chain.ts';
import { mine, Sender, topic } from '../../helpers/logChain.ts';

const Logs = suite('a transaction\'s logs');
let chain: TestChain;
Logs.after(async () => { await chain?.close(); });

Logs('each transaction\'s logs are the block\'s logs at its index, with their positions in the block', async () => {
  chain = await openTestChain();
  const s = new Sender(chain);
  const d = s.deployTx();
  await mine(chain, [d.tx]);
  // Logs, none (a plain call with no log), logs again, and a transaction whose logs come after others'.
  const { block } = await mine(chain, [
    s.raw(d.address, [topic(0x11), topic(0x22)]), s.tx(new Uint8Array(20).fill(7), '0x'), s.ping(d.address, 3, 9), s.raw(d.address, [topic(0x33)], '0x1234'),
  ]);
  const receipts = (await chain.reader.getReceipts(block.hash))!;
  const all = blockLogEntries(block, receipts);
  assert.is(all.length, 1 + 0 + 4 + 1);
  for (let i = 0; i < block.txs.length; i++) {
    assert.equal(txLogEntries(block, receipts, i), all.filter((l) => l.txIndex === i), `transaction ${i}`);
  }
  assert.equal(txLogEntries(block, receipts, 3).map((l) => l.logIndex), [5]);
  assert.equal(txLogEntries(block, receipts, 1), []);
});

Logs.run();

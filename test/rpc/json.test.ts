/** Replies with results already written as JSON text: the bytes are those JSON.stringify gives the same reply. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { LogEntry } from '../../src/chain/logs/logFilter.ts';
import { formatLog, logJson } from '../../src/rpc/format.ts';
import { JsonArrayText, parseJson, replyJson } from '../../src/rpc/json.ts';

const Json = suite('replyJson');

const LOG: LogEntry = {
  blockHash: `0x${'ab'.repeat(32)}`, blockNumber: 300n, txHash: `0x${'cd'.repeat(32)}`, txIndex: 2, logIndex: 7,
  address: `0x${'ef'.repeat(20)}`, topics: [`0x${'01'.repeat(32)}`, `0x${'02'.repeat(32)}`], data: '0x1234',
};
const OTHER: LogEntry = { ...LOG, logIndex: 8, topics: [], data: '0x' };

/** The reply with each JsonArrayText result turned back into plain values, stringified. */
const plain = (reply: unknown) =>
  JSON.stringify(reply, (_key, value) => (value instanceof JsonArrayText ? value.items.map((item) => JSON.parse(item)) : value));
const text = (reply: unknown) => {
  const out = replyJson(reply);
  return typeof out === 'string' ? out : out.toString('utf8');
};

Json('a log as JSON text is formatLog stringified, with removed (true or false) or without, and the same text when asked again', () => {
  assert.is(logJson(LOG), JSON.stringify(formatLog(LOG)));
  assert.not.ok('removed' in formatLog(LOG));
  assert.is(logJson(LOG), logJson(LOG));
  assert.is(logJson(LOG, true), JSON.stringify(formatLog(LOG, true)));
  assert.is(logJson(LOG, false), JSON.stringify(formatLog(LOG, false)));
  assert.is(JSON.parse(logJson(LOG, false)).removed, false);
  assert.is(logJson(OTHER), JSON.stringify(formatLog(OTHER)));
});

Json('a text result is spliced into the envelope: the bytes JSON.stringify gives the same reply', () => {
  const result = new JsonArrayText([logJson(LOG), logJson(OTHER, true)]);
  for (const id of [1, 'ü-id', null, (parseJson('{"id":123456789012345678901,"method":"m"}') as { id: unknown }).id]) {
    const reply = { jsonrpc: '2.0', id, result };
    // Short: one string (Node writes it with the HTTP head in one write).
    assert.type(replyJson(reply), 'string');
    assert.is(text(reply), plain(reply));
  }
  // Long: the UTF-8 bytes, pieces copied in.
  const long = { jsonrpc: '2.0', id: 'ü', result: new JsonArrayText(Array.from({ length: 400 }, (_, i) => logJson({ ...LOG, logIndex: i }))) };
  assert.ok(Buffer.isBuffer(replyJson(long)));
  assert.is(text(long), plain(long));
  assert.is(text({ jsonrpc: '2.0', id: 1, result: new JsonArrayText([]) }), '{"jsonrpc":"2.0","id":1,"result":[]}');
});

Json('a batch mixing text results, plain results and errors keeps its order', () => {
  const batch = [
    { jsonrpc: '2.0', id: 1, result: new JsonArrayText([logJson(LOG)]) },
    { jsonrpc: '2.0', id: 2, error: { code: -32602, message: 'bad' } },
    { jsonrpc: '2.0', id: 3, result: ['0x1'] },
    { jsonrpc: '2.0', id: 'é', result: new JsonArrayText([JSON.stringify('0xaa'), JSON.stringify('0xbb')]) },
  ];
  assert.is(text(batch), plain(batch));
});

Json('a reply without text results is stringified as it is', () => {
  const reply = { jsonrpc: '2.0', id: 5, result: { a: [1, 'x'] } };
  assert.is(replyJson(reply), JSON.stringify(reply));
});

Json.run();

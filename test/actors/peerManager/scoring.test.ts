/** Peer reputations and bans, pure (docs/network.md "Scoring and bans"): score rules, punishment lengths, expiry, address bans. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { blockListOf, parseAddressBan } from '../../../src/actors/peerManager/bans.ts';
import { isPunished, newReputation, recordEvent } from '../../../src/actors/peerManager/scoring.ts';

const Scoring = suite('peer scoring');
const BASE = 12 * 60_000;
const T0 = 1_000_000;

Scoring('good events raise a non-negative score, bad ones reset a positive score and take one off, neutral ones leave it', () => {
  const r = newReputation();
  for (let i = 0; i < 3; i++) assert.is(recordEvent(r, 'validBlocks', T0, BASE), false);
  assert.is(r.score, 3);
  recordEvent(r, 'timeoutMessages', T0, BASE);
  recordEvent(r, 'successfulHandshakes', T0, BASE);
  assert.is(r.score, 3, 'neutral events');
  assert.is(recordEvent(r, 'invalidTransactions', T0, BASE), false, 'an invalid transaction alone does not punish');
  assert.is(r.score, -1, 'reset to 0, then -1');
  recordEvent(r, 'validTransactions', T0, BASE);
  assert.is(r.score, -1, 'a negative score does not recover by good events');
  assert.is(r.counters.validBlocks, 3);
  assert.is(r.counters.invalidTransactions, 1);
});

Scoring('an invalid block, message or header punishes at once, for the base length', () => {
  for (const event of ['invalidBlocks', 'invalidMessages', 'invalidHeader'] as const) {
    const r = newReputation();
    recordEvent(r, 'validBlocks', T0, BASE);
    assert.is(recordEvent(r, event, T0, BASE), true, event);
    assert.is(r.punishedUntil, T0 + BASE, `${event}: score -1 after a reset, so the base length`);
    assert.ok(isPunished(r, T0 + BASE - 1));
    assert.not.ok(isPunished(r, T0 + BASE));
  }
});

Scoring('each earlier punishment lengthens the next by 10 %, a negative score multiplies it, and expiry starts the record afresh', () => {
  const r = newReputation();
  assert.ok(recordEvent(r, 'invalidBlocks', T0, BASE));
  assert.is(r.punishedUntil - T0, BASE);
  assert.not.ok(recordEvent(r, 'invalidBlocks', T0 + 1, BASE), 'no second punishment while punished');
  const after = T0 + 10 * BASE;
  assert.ok(recordEvent(r, 'invalidBlocks', after, BASE), 'punished again after expiry');
  assert.is(r.punishments, 2);
  assert.is(r.score, -1, 'the score started afresh at expiry');
  assert.is(r.counters.invalidBlocks, 1, 'the counters started afresh at expiry');
  assert.is(r.punishedUntil - after, Math.floor(BASE * 1.1));
  const low = newReputation();
  for (let i = 0; i < 4; i++) assert.not.ok(recordEvent(low, 'invalidTransactions', T0, BASE));
  assert.ok(recordEvent(low, 'invalidTransactions', T0, BASE), 'a score down to -5 punishes');
  assert.is(low.punishedUntil - T0, 5 * BASE, '× −score');
});

const Bans = suite('address bans');

Bans('an address or a CIDR block is banned, and the block list matches what it covers', () => {
  const list = blockListOf([parseAddressBan('10.1.0.0/16'), parseAddressBan(' 192.0.2.7 '), parseAddressBan('2001:db8::/32')]);
  assert.ok(list.check('10.1.200.3', 'ipv4'));
  assert.not.ok(list.check('10.2.0.1', 'ipv4'));
  assert.ok(list.check('192.0.2.7', 'ipv4'));
  assert.not.ok(list.check('192.0.2.8', 'ipv4'));
  assert.ok(list.check('2001:db8::1', 'ipv6'));
  assert.ok(list.check('127.0.0.2', 'ipv4') === false, 'nothing else');
  assert.ok(blockListOf([parseAddressBan('127.0.0.2')]).check('127.0.0.2', 'ipv4'), 'other loopback addresses stand in for hosts');
});

Bans('the machine\'s own address, a block holding it, wildcards and malformed targets are refused', () => {
  for (const text of ['127.0.0.1', '127.0.0.0/8', '::1', '0.0.0.0', '::', '10.0.0.0/33', '10.0.0.0/0', 'example.org', '1.2.3.4/8/9', '']) {
    assert.throws(() => parseAddressBan(text), /invalid banned address/, text);
  }
});

Scoring.run();
Bans.run();

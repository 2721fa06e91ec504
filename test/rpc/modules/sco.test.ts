/**
 * sco_* through the dispatcher on a fake peer manager (docs/network.md "Scoring and bans"): bans
 * and unbans are handed on with the address as given, the peer manager's refusals keep their code,
 * and the reputation summary adds up the scoring entries. On real peers: test/actors/peerManager.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { PeerManagerProtocol, ScoringEntry } from '../../../src/actors/peerManager/index.ts';
import { NodeError } from '../../../src/errors.ts';
import { PEER_EVENTS } from '../../../src/p2p/index.ts';
import { fakeRef, fakeRpc } from '../../helpers/fakeRpc.ts';

const Sco = suite('sco_*');

const entry = (id: string, score: number, goodReputation: boolean, events: Partial<Record<(typeof PEER_EVENTS)[number], number>>): ScoringEntry => ({
  ...Object.fromEntries(PEER_EVENTS.map((e) => [e, events[e] ?? 0])) as Record<(typeof PEER_EVENTS)[number], number>,
  id, type: 'node', score, punishments: goodReputation ? 0 : 1, goodReputation, punishedUntil: 0,
});
const ENTRIES = [
  entry('peerA', 40, true, { successfulHandshakes: 1, validBlocks: 7, validTransactions: 3 }),
  entry('peerB', -20, false, { successfulHandshakes: 1, invalidBlocks: 2, timeoutMessages: 1 }),
  entry('10.0.0.9', 0, true, { failedHandshakes: 2 }),
];

function peerManager(entries: ScoringEntry[] = ENTRIES) {
  const banned: string[] = [];
  return fakeRef<PeerManagerProtocol>('peerManager', {
    'sco.peerList': () => entries,
    'sco.bannedAddresses': () => [...banned],
    'sco.banAddress': ({ address }) => {
      if (address === '127.0.0.1') throw new NodeError('INVALID_PARAMS', "invalid banned address 127.0.0.1: this machine's own address (127.0.0.1, ::1) and wildcard addresses cannot be banned");
      banned.push(address);
      return null;
    },
    'sco.unbanAddress': ({ address }) => { banned.splice(banned.indexOf(address), 1); return null; },
  });
}

Sco('sco_reputationSummary adds up every counter, the scores and the punishments, and counts good and bad reputations', async () => {
  const rpc = fakeRpc({ peers: peerManager() });
  const summary = await rpc.result('sco_reputationSummary');
  assert.equal(summary, {
    count: 3,
    successfulHandshakes: 2, failedHandshakes: 2, invalidNetworks: 0, repeatedMessages: 0, validBlocks: 7, validTransactions: 3,
    invalidBlocks: 2, invalidTransactions: 0, invalidMessages: 0, timeoutMessages: 1, unexpectedMessages: 0, invalidHeader: 0,
    peersTotalScore: 20, punishments: 1, goodReputationCount: 2, badReputationCount: 1,
  });
  assert.equal(Object.keys(summary).filter((k) => (PEER_EVENTS as readonly string[]).includes(k)).sort(), [...PEER_EVENTS].sort(), 'every peer event is summed');
  assert.equal(await rpc.result('sco_peerList'), ENTRIES);
});

Sco('with no peers the summary is all zeros', async () => {
  const summary = await fakeRpc({ peers: peerManager([]) }).result('sco_reputationSummary');
  assert.ok(Object.values(summary).every((v) => v === 0), JSON.stringify(summary));
});

Sco('bans and unbans go to the peer manager as given; its refusal is -32602 with its reason', async () => {
  const peers = peerManager();
  const rpc = fakeRpc({ peers });
  assert.is(await rpc.result('sco_banAddress', ['10.0.0.0/8']), null);
  assert.is(await rpc.result('sco_banAddress', ['192.168.51.1']), null);
  assert.equal(await rpc.result('sco_bannedAddresses'), ['10.0.0.0/8', '192.168.51.1']);
  assert.is(await rpc.result('sco_unbanAddress', ['10.0.0.0/8']), null);
  assert.equal(await rpc.result('sco_bannedAddresses'), ['192.168.51.1']);
  const refused = await rpc.error('sco_banAddress', ['127.0.0.1']);
  assert.equal(refused, { code: -32602, message: "invalid banned address 127.0.0.1: this machine's own address (127.0.0.1, ::1) and wildcard addresses cannot be banned" });
  assert.equal(peers.asked.filter((a) => a.type === 'sco.banAddress').map((a) => a.req), [{ address: '10.0.0.0/8' }, { address: '192.168.51.1' }, { address: '127.0.0.1' }]);
});

Sco('an address that is not a string is -32602 naming the parameter, and nothing is asked', async () => {
  const peers = peerManager();
  const rpc = fakeRpc({ peers });
  for (const method of ['sco_banAddress', 'sco_unbanAddress']) {
    for (const params of [[], [null], [42], [['10.0.0.1']]]) {
      const err = await rpc.error(method, params);
      assert.is(err.code, -32602, `${method} ${JSON.stringify(params)}`);
      assert.match(err.message, '0 (address)');
    }
  }
  assert.equal(peers.asked, []);
});

Sco.run();

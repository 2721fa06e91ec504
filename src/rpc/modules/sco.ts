/** sco_*: peer scoring and bans (docs/network.md "Scoring and bans"). */
import type { ScoringEntry } from '../../actors/peerManager/index.ts';
import { PEER_EVENTS } from '../../p2p/index.ts';
import type { RpcDeps } from '../deps.ts';
import { method } from '../method.ts';
import { text } from '../params.ts';

export function reputationSummary(entries: readonly ScoringEntry[]) {
  const sum = (f: (e: ScoringEntry) => number) => entries.reduce((n, e) => n + f(e), 0);
  return {
    count: entries.length,
    ...Object.fromEntries(PEER_EVENTS.map((k) => [k, sum((e) => e[k])])),
    peersTotalScore: sum((e) => e.score),
    punishments: sum((e) => e.punishments),
    goodReputationCount: entries.filter((e) => e.goodReputation).length,
    badReputationCount: entries.filter((e) => !e.goodReputation).length,
  };
}

export const scoModule = (deps: Pick<RpcDeps, 'peers'>) => ({
  sco_banAddress: method([['address', text]], ([address]) => deps.peers.ask('sco.banAddress', { address })),
  sco_unbanAddress: method([['address', text]], ([address]) => deps.peers.ask('sco.unbanAddress', { address })),
  sco_peerList: method([], () => deps.peers.ask('sco.peerList', {})),
  sco_bannedAddresses: method([], () => deps.peers.ask('sco.bannedAddresses', {})),
  sco_reputationSummary: method([], async () => reputationSummary(await deps.peers.ask('sco.peerList', {}))),
});

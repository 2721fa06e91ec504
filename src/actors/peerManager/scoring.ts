/**
 * Peer reputation after the reference node (docs/network.md "Scoring and bans"): counters per event, a score that
 * drops on bad events and recovers on good ones, punishment (a ban) on an invalid block, header or
 * message, lasting `baseMs × 1.1^previous punishments`, after which the record starts afresh.
 */
import { PEER_EVENTS as EVENTS, type PeerEvent } from '../../p2p/index.ts';

export type { PeerEvent };

const LOWERS_SCORE = new Set<PeerEvent>(['invalidNetworks', 'invalidBlocks', 'invalidTransactions', 'invalidMessages', 'invalidHeader']);
const NEUTRAL = new Set<PeerEvent>(['unexpectedMessages', 'failedHandshakes', 'successfulHandshakes', 'repeatedMessages', 'timeoutMessages']);
/** Events that start a punishment at once. */
const PUNISHES = new Set<PeerEvent>(['invalidBlocks', 'invalidMessages', 'invalidHeader']);

export interface Reputation {
  readonly counters: Record<PeerEvent, number>;
  score: number;
  punishments: number;
  /** Epoch ms; 0 when never punished. */
  punishedUntil: number;
}

export const newReputation = (): Reputation => ({
  counters: Object.fromEntries(EVENTS.map((e) => [e, 0])) as Record<PeerEvent, number>,
  score: 0, punishments: 0, punishedUntil: 0,
});

export const isPunished = (r: Reputation, nowMs: number) => r.punishedUntil > nowMs;

/** Records an event; returns true when it starts a punishment. */
export function recordEvent(r: Reputation, event: PeerEvent, nowMs: number, basePunishmentMs: number): boolean {
  if (r.punishedUntil !== 0 && r.punishedUntil <= nowMs) expire(r);
  r.counters[event]++;
  if (LOWERS_SCORE.has(event)) r.score = (r.score > 0 ? 0 : r.score) - 1;
  else if (!NEUTRAL.has(event) && r.score >= 0) r.score++;
  if (!PUNISHES.has(event) && r.score > -5) return false;
  if (isPunished(r, nowMs)) return false;
  let duration = basePunishmentMs;
  for (let i = 0; i < r.punishments; i++) duration = Math.floor(duration * 1.1);
  if (r.score < 0) duration *= -r.score;
  r.punishments++;
  r.punishedUntil = nowMs + duration;
  return true;
}

/** After a punishment the counters and score start afresh (the punishment count stays). */
function expire(r: Reputation): void {
  for (const e of EVENTS) r.counters[e] = 0;
  r.score = 0;
  r.punishedUntil = 0;
}

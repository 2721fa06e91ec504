/**
 * The peers a node knows, kept in `<data dir>/peers.json` so a restarted node redials them even when
 * its bootnodes are down (docs/network.md "Remembered peers"). Bounded: at most MAX_PEERS peers with
 * MAX_ADDRESSES dialable addresses each, whatever peers advertise. Each peer has its own redial
 * schedule: every dial puts the next one off (capped exponential backoff with jitter) until a
 * connection resets it (the peer manager calls it one once the status handshake succeeded).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDialable } from './multiaddrs.ts';
import type { PeerIdStr } from './types.ts';

export const MAX_PEERS = 256;
export const MAX_ADDRESSES = 4;
/** First wait after a failed dial, and the longest. */
export const REDIAL_BASE_MS = 1_000;
export const REDIAL_CAP_MS = 60_000;
const FILE = 'peers.json';

export interface KnownPeer {
  readonly id: PeerIdStr;
  /** Most recently learned first. */
  addresses: string[];
  /** Epoch ms of the last connection (0: never connected). */
  lastSeen: number;
  /** Dials since the last connection. */
  attempts: number;
  /** No dial before this epoch ms. */
  nextDialAt: number;
  /** Bootnodes are never evicted. */
  readonly bootnode: boolean;
}

/** The wait before the next dial after `attempts` dials without a connection: base × 2^(n-1), capped, ×0.5–1.5 jitter. */
export function redialDelayMs(attempts: number, random = Math.random): number {
  const backoff = Math.min(REDIAL_CAP_MS, REDIAL_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(backoff * (0.5 + random()));
}

export class AddressBook {
  readonly #peers = new Map<PeerIdStr, KnownPeer>();
  /**
   * Peers forgotten (another chain), with the epoch ms until which what they advertise is not learned: their
   * identify or a discovery can arrive after the handshake that made us forget them, and would make them
   * due at once. At most MAX_PEERS, the oldest going first.
   */
  readonly #forgotten = new Map<PeerIdStr, number>();
  readonly #file: string | undefined;
  #dirty = false;

  /** `dataDir` undefined: kept in memory only. */
  constructor(dataDir: string | undefined, bootnodes: readonly { peerId: PeerIdStr; address: string }[], readonly self: PeerIdStr) {
    this.#file = dataDir === undefined ? undefined : join(dataDir, FILE);
    for (const b of bootnodes) this.#entry(b.peerId, true)?.addresses.unshift(b.address);
    if (this.#file && existsSync(this.#file)) this.#load(this.#file);
  }

  get size(): number { return this.#peers.size; }
  get(id: PeerIdStr): KnownPeer | undefined { return this.#peers.get(id); }
  all(): KnownPeer[] { return [...this.#peers.values()]; }

  /** Adds addresses learned for a peer (identify, discovery); only dialable ones, at most MAX_ADDRESSES. */
  learn(id: PeerIdStr, addresses: readonly string[], now = Date.now()): void {
    if ((this.#forgotten.get(id) ?? 0) > now) return;
    const dialable = addresses.filter(isDialable).map((a) => a.replace(/\/p2p\/\w+$/, '')).slice(0, MAX_ADDRESSES);
    if (dialable.length === 0) return;
    const peer = this.#entry(id, false);
    if (!peer) return;
    const merged = [...new Set([...dialable, ...peer.addresses])].slice(0, MAX_ADDRESSES);
    if (merged.join() !== peer.addresses.join()) { peer.addresses = merged; this.#dirty = true; }
  }

  connected(id: PeerIdStr, now: number): void {
    const peer = this.#peers.get(id);
    if (!peer) return;
    peer.lastSeen = now;
    peer.attempts = 0;
    peer.nextDialAt = 0;
    this.#dirty = true;
  }

  /**
   * A peer not worth dialling again (another chain): forgotten, and not learned again for the longest redial
   * wait; a bootnode is put off as after a dial instead.
   */
  forget(id: PeerIdStr, now = Date.now()): void {
    const peer = this.#peers.get(id);
    if (peer?.bootnode) return this.dialing(id, now);
    if (peer) { this.#peers.delete(id); this.#dirty = true; }
    this.#forgotten.delete(id);
    if (this.#forgotten.size >= MAX_PEERS) this.#forgotten.delete(this.#forgotten.keys().next().value!);
    this.#forgotten.set(id, now + REDIAL_CAP_MS);
  }

  /**
   * A dial starts: the next one is put off now, not when this one fails, so no event that arrives
   * before the failure (the connection closing, say) finds the peer due again.
   */
  dialing(id: PeerIdStr, now: number): void {
    const peer = this.#peers.get(id);
    if (!peer) return;
    peer.attempts++;
    peer.nextDialAt = now + redialDelayMs(peer.attempts);
  }

  /** Peers due for a dial, bootnodes and the most recently seen first. */
  due(now: number, skip: (id: PeerIdStr) => boolean): KnownPeer[] {
    return this.all()
      .filter((p) => p.nextDialAt <= now && p.addresses.length > 0 && !skip(p.id))
      .sort((a, b) => Number(b.bootnode) - Number(a.bootnode) || b.lastSeen - a.lastSeen);
  }

  /** Writes the book if it changed (to a temporary file, then renamed: a crash leaves the old or the new one). */
  save(): void {
    if (!this.#file || !this.#dirty) return;
    const peers = this.all().filter((p) => !p.bootnode || p.lastSeen > 0).map(({ id, addresses, lastSeen }) => ({ id, addresses, lastSeen }));
    writeFileSync(`${this.#file}.tmp`, JSON.stringify({ version: 1, peers }));
    renameSync(`${this.#file}.tmp`, this.#file);
    this.#dirty = false;
  }

  #entry(id: PeerIdStr, bootnode: boolean): KnownPeer | undefined {
    if (id === this.self) return undefined;
    let peer = this.#peers.get(id);
    if (!peer) {
      if (this.#peers.size >= MAX_PEERS && !this.#evictOne()) return undefined;
      peer = { id, addresses: [], lastSeen: 0, attempts: 0, nextDialAt: 0, bootnode };
      this.#peers.set(id, peer);
      this.#dirty = true;
    }
    return peer;
  }

  /** Drops the least recently seen peer that is not a bootnode; false when there is none. */
  #evictOne(): boolean {
    let victim: KnownPeer | undefined;
    for (const p of this.#peers.values()) if (!p.bootnode && (!victim || p.lastSeen < victim.lastSeen)) victim = p;
    if (victim) this.#peers.delete(victim.id);
    return victim !== undefined;
  }

  /** A file that is not ours or is damaged is ignored: the peers are relearned from bootnodes. */
  #load(file: string): void {
    let stored: unknown;
    try { stored = JSON.parse(readFileSync(file, 'utf8')); } catch { return; }
    const peers = (stored as { peers?: unknown })?.peers;
    if (!Array.isArray(peers)) return;
    for (const p of peers.slice(0, MAX_PEERS)) {
      if (typeof p?.id !== 'string' || !/^\w{1,128}$/.test(p.id) || !Array.isArray(p.addresses)) continue;
      this.learn(p.id, p.addresses.filter((a: unknown): a is string => typeof a === 'string'));
      const peer = this.#peers.get(p.id);
      if (peer && Number.isSafeInteger(p.lastSeen)) peer.lastSeen = Math.max(peer.lastSeen, p.lastSeen);
    }
    this.#dirty = false;
  }
}

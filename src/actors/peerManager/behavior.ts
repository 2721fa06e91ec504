/** Peer table, handshakes, reputation and bans, the remembered peers and the dialer that keeps a node at its minimum of peers. */
import { equalsBytes } from '@ethereumjs/util';
import { isIP } from 'node:net';
import type { ChainView } from '../../chain/reader.ts';
import { NodeError } from '../../errors.ts';
import { addressOf, AddressBook, requestStatus, type P2P, type PeerIdStr, type Status } from '../../p2p/index.ts';
import type { ActorRef, Behavior } from '../kernel/index.ts';
import { blockListOf, parseAddressBan, type AddressBan } from './bans.ts';
import type { PeerManagerOptions } from './options.ts';
import { WalkSchedule } from './walks.ts';
import type { PeerManagerProtocol, PeerView, ScoringEntry } from './protocol.ts';
import { isPunished, newReputation, recordEvent, type PeerEvent, type Reputation } from './scoring.ts';
import { logger } from '../../log.ts';

const log = logger('p2p');

/** What the connection gater reads: replaced whole whenever bans change, never mutated. */
export interface BanSnapshot {
  readonly peers: ReadonlyMap<PeerIdStr, number>;
  readonly addresses: ReturnType<typeof blockListOf>;
}

interface PeerManagerState {
  readonly p2p: P2P;
  readonly connected: Map<PeerIdStr, PeerView>;
  readonly nodes: Map<PeerIdStr, Reputation>;
  readonly hosts: Map<string, Reputation>;
  readonly addressBans: AddressBan[];
  readonly peerBans: Map<PeerIdStr, number>;
  readonly book: AddressBook;
  /** Dials in flight. */
  readonly dialing: Set<PeerIdStr>;
  /** When to start a random walk while below the minimum with nobody left to dial. */
  readonly walks: WalkSchedule;
  readonly timer: ReturnType<typeof setInterval>;
}

export interface PeerManagerDeps {
  readonly reader: ChainView;
  readonly startP2P: (isBanned: (peer: PeerIdStr | undefined, host: string | undefined) => boolean) => Promise<P2P>;
  readonly self: () => ActorRef<PeerManagerProtocol>;
  /** Told of every handshaked peer's status (block sync starts from it). */
  readonly onPeerStatus: (peer: PeerIdStr, status: Status) => void;
  /** Told once per connection, at a peer's first handshake (its pool is asked for then). */
  readonly onPeerJoined: (peer: PeerIdStr) => void;
}

export function ourStatus(reader: ChainView, genesisHash: Uint8Array): Status {
  const head = reader.head();
  return { chainId: reader.network.chainId, genesisHash, headHash: head.hash, headNumber: head.number, totalDifficulty: head.totalDifficulty };
}

export function peerManagerBehavior(opts: PeerManagerOptions, deps: PeerManagerDeps): Behavior<PeerManagerProtocol, PeerManagerState> {
  let bans: BanSnapshot = { peers: new Map(), addresses: blockListOf([]) };
  let genesisHash: Uint8Array;
  const isBanned = (peer: PeerIdStr | undefined, host: string | undefined) => {
    if (peer !== undefined && (bans.peers.get(peer) ?? 0) > Date.now()) return true;
    return host !== undefined && isIP(host) !== 0 && bans.addresses.check(host, isIP(host) === 4 ? 'ipv4' : 'ipv6');
  };
  const publishBans = (s: PeerManagerState) => {
    bans = Object.freeze({ peers: new Map(s.peerBans), addresses: blockListOf(s.addressBans) });
  };
  const tell = (msg: PeerManagerProtocol['tell']) => { try { deps.self().tell(msg); } catch { /* stopping */ } };

  const recordOf = <K>(map: Map<K, Reputation>, key: K): Reputation => {
    let r = map.get(key);
    if (r) map.delete(key); // re-insert: the map's order is least recently used first
    r ??= newReputation();
    map.set(key, r);
    while (map.size > opts.maxRecords) map.delete(map.keys().next().value as K);
    return r;
  };

  async function handshake(peer: PeerIdStr, p2p: P2P) {
    try {
      const status = await requestStatus(p2p, peer, ourStatus(deps.reader, genesisHash));
      tell({ type: 'peer.handshaked', peer, status });
    } catch {
      tell({ type: 'peer.event', peer, event: 'failedHandshakes' });
    }
  }

  function record(s: PeerManagerState, peer: PeerIdStr, event: PeerEvent) {
    const now = Date.now();
    const host = s.connected.get(peer)?.host;
    const punished = recordEvent(recordOf(s.nodes, peer), event, now, opts.punishmentMs);
    // Peers on the machine's own address share one host: address reputation counts for the others.
    if (host && !/^127\.0\.0\.1$|^::1$/.test(host)) recordEvent(recordOf(s.hosts, host), event, now, opts.punishmentMs);
    if (punished) {
      const until = s.nodes.get(peer)!.punishedUntil;
      s.peerBans.set(peer, until);
      publishBans(s);
      log.warn(`peer ${peer.slice(-8)} punished until ${new Date(until).toISOString()} after ${event}`);
      void s.p2p.disconnect(peer);
    }
  }

  /** A peer we must not dial: banned by id, or every address it has is on a banned host. */
  const unwelcome = (s: PeerManagerState, id: PeerIdStr) =>
    isBanned(id, undefined) || (s.book.get(id)?.addresses.every((a) => isBanned(undefined, addressOf(a).host)) ?? false);

  /** Below the minimum: dial the remembered peers that are due, or look for more with a random walk. */
  function dialMore(s: PeerManagerState) {
    const now = Date.now();
    s.book.save();
    const missing = opts.minPeers - s.connected.size - s.dialing.size;
    if (missing <= 0) return;
    const due = s.book.due(now, (id) => s.connected.has(id) || s.dialing.has(id) || unwelcome(s, id)).slice(0, missing);
    for (const peer of due) {
      s.dialing.add(peer.id);
      s.book.dialing(peer.id, now);
      // Success or failure alike: the book put the next dial off already, a handshake resets it.
      s.p2p.dialPeer(peer.id, peer.addresses).catch(() => undefined).finally(() => tell({ type: 'dial.done', peer: peer.id }));
    }
    if (due.length < missing && s.connected.size > 0 && s.walks.take(now, s.connected.size)) {
      void s.p2p.randomWalk().catch(() => { /* no peer answered in time: the next walk tries again */ });
    }
  }

  const entry = (id: string, type: 'node' | 'address', r: Reputation, now: number): ScoringEntry => ({
    ...r.counters, score: r.score, punishments: r.punishments, goodReputation: !isPunished(r, now), punishedUntil: r.punishedUntil, id, type,
  });

  return {
    async init() {
      const genesis = await deps.reader.canonicalHash(0n);
      genesisHash = genesis!;
      const p2p = await deps.startP2P(isBanned);
      p2p.onPeerConnected((peer) => tell({ type: 'peer.connected', peer }));
      p2p.onPeerDisconnected((peer) => tell({ type: 'peer.disconnected', peer }));
      p2p.onPeerAddresses((peer, addresses) => tell({ type: 'peer.addresses', peer, addresses }));
      const s: PeerManagerState = {
        p2p, connected: new Map(), nodes: new Map(), hosts: new Map(), addressBans: [], peerBans: new Map(),
        book: new AddressBook(opts.dataDir, opts.bootnodes, p2p.peerId), dialing: new Set(), walks: new WalkSchedule(),
        timer: setInterval(() => tell({ type: 'dial.tick' }), opts.dialIntervalMs),
      };
      dialMore(s);
      return s;
    },
    async onTell(s, msg) {
      switch (msg.type) {
        case 'peer.connected':
          if (isBanned(msg.peer.id, msg.peer.host)) { void s.p2p.disconnect(msg.peer.id); break; }
          if (!s.connected.has(msg.peer.id)) s.connected.set(msg.peer.id, { ...msg.peer, status: undefined });
          void handshake(msg.peer.id, s.p2p);
          break;
        case 'peer.disconnected':
          s.connected.delete(msg.peer);
          dialMore(s);
          break;
        case 'peer.addresses':
          s.book.learn(msg.peer, msg.addresses);
          break;
        case 'dial.done':
          s.dialing.delete(msg.peer);
          break;
        case 'dial.tick':
          dialMore(s);
          break;
        case 'peer.handshaked': {
          const view = s.connected.get(msg.peer);
          if (!view) break;
          if (msg.status.chainId !== deps.reader.network.chainId || !equalsBytes(msg.status.genesisHash, genesisHash)) {
            record(s, msg.peer, 'invalidNetworks');
            s.book.forget(msg.peer);
            void s.p2p.disconnect(msg.peer);
            s.connected.delete(msg.peer);
            break;
          }
          s.connected.set(msg.peer, { ...view, status: msg.status });
          deps.onPeerStatus(msg.peer, msg.status);
          if (!view.status) {
            // Only a handshake proves the peer takes us (one that bans us closes the connection after its
            // encryption handshake, which looks like a connection here): only a handshake resets its redial schedule.
            s.book.connected(msg.peer, Date.now());
            record(s, msg.peer, 'successfulHandshakes');
            deps.onPeerJoined(msg.peer);
          }
          break;
        }
        case 'peer.event':
          record(s, msg.peer, msg.event);
          break;
        case 'gossip.publish':
          if (s.connected.size === 0) break; // nobody to tell: skip the encoding, hashing and caching of a publish
          void s.p2p.publish(msg.topic, msg.encode()).catch((err) => log.warn(`publish failed: ${(err as Error).message}`));
          break;
      }
      return s;
    },
    onAsk: {
      'peers.list': (s) => [s, [...s.connected.values()].filter((p) => p.status !== undefined)],
      'p2p.info': (s) => [s, { peerId: s.p2p.peerId, multiaddrs: s.p2p.multiaddrs(), listening: s.p2p.multiaddrs().length > 0, queued: s.p2p.queuedMessages() }],
      'p2p.dial': async (s, { multiaddr }) => [s, await s.p2p.dial(multiaddr)],
      'peers.ban': async (s, { peer, ms }) => {
        s.peerBans.set(peer, Date.now() + ms);
        publishBans(s);
        await s.p2p.disconnect(peer);
        return [s, undefined];
      },
      'peers.unban': (s, { peer }) => {
        s.peerBans.delete(peer);
        recordOf(s.nodes, peer).punishedUntil = 0;
        publishBans(s);
        return [s, undefined];
      },
      'sco.banAddress': (s, { address }) => {
        const ban = parseBan(address);
        if (!s.addressBans.some((b) => b.text === ban.text)) s.addressBans.push(ban);
        publishBans(s);
        for (const p of s.connected.values()) if (isBanned(undefined, p.host)) void s.p2p.disconnect(p.id);
        return [s, null];
      },
      'sco.unbanAddress': (s, { address }) => {
        const ban = parseBan(address);
        const i = s.addressBans.findIndex((b) => b.text === ban.text);
        if (i >= 0) s.addressBans.splice(i, 1);
        publishBans(s);
        return [s, null];
      },
      'sco.peerList': (s) => {
        const now = Date.now();
        return [s, [
          ...[...s.nodes].map(([id, r]) => entry(id.slice(-8), 'node', r, now)),
          ...[...s.hosts].map(([host, r]) => entry(host, 'address', r, now)),
        ]];
      },
      'sco.bannedAddresses': (s) => [s, [
        ...s.addressBans.filter((b) => b.prefix === undefined).map((b) => b.text),
        ...s.addressBans.filter((b) => b.prefix !== undefined).map((b) => b.text),
      ]],
    },
    async onStop(s) {
      clearInterval(s.timer);
      s.book.save();
      await s.p2p.stop();
    },
  };
}

function parseBan(address: string) {
  try {
    return parseAddressBan(address);
  } catch (err) {
    throw new NodeError('INVALID_PARAMS', (err as Error).message);
  }
}



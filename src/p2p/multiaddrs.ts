/**
 * The multiaddrs a node takes (bootnodes, --p2p-announce) and the ones it keeps and dials: TCP over
 * IPv4, IPv6 or DNS, never a wildcard address (docs/network.md "Addresses").
 */
import { multiaddr, type Multiaddr } from '@multiformats/multiaddr';
import type { PeerAddress } from './types.ts';

const TCP_ADDRESS = /^\/(ip4|ip6|dns4|dns6|dns)\/([^/]+)\/tcp\/(\d+)(?:\/p2p\/(\w+))?$/;
const WILDCARD = new Set(['0.0.0.0', '::']);

/** "/ip4/1.2.3.4/tcp/5050/…" → { host, port } (host "?" for an address of another kind). */
export function addressOf(ma: string): PeerAddress {
  const m = /^\/(?:ip[46]|dns[46]?)\/([^/]+)\/tcp\/(\d+)/.exec(ma);
  return { host: m?.[1] ?? '?', port: Number(m?.[2] ?? 0) };
}

/** A TCP address another machine could dial: a concrete host and a port, no wildcard. */
export function isDialable(ma: string): boolean {
  const m = TCP_ADDRESS.exec(ma);
  return m !== null && !WILDCARD.has(m[2]!) && Number(m[3]) > 0 && Number(m[3]) < 65536;
}

/** A bootnode: a dialable TCP address ending in /p2p/<peer id>. Throws with what was expected. */
export function parsePeerAddress(text: string): { peerId: string; multiaddr: Multiaddr } {
  const m = TCP_ADDRESS.exec(text);
  if (!m || !m[4] || !isDialable(text)) throw new Error(`${text} is not a multiaddr like /ip4/127.0.0.1/tcp/5050/p2p/<peer id> or /dns4/<name>/tcp/5050/p2p/<peer id>`);
  return { peerId: m[4], multiaddr: multiaddr(text) };
}

/** An address to advertise: dialable, without /p2p (the node appends its own id). */
export function parseAnnounceAddress(text: string): Multiaddr {
  const m = TCP_ADDRESS.exec(text);
  if (!m || m[4] || !isDialable(text)) throw new Error(`${text} is not an address like /ip4/203.0.113.5/tcp/5050 or /dns4/node.example.org/tcp/5050 (no wildcard, no /p2p)`);
  return multiaddr(text);
}

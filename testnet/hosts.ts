/**
 * The loopback address plan of the process testnet (docs/testnet.md, "Addresses"): node i listens and
 * dials from 127.0.1.<i+2> and announces 127.0.0.<i+2>, where its relay listens. A connection's source
 * address therefore names the node it comes from.
 */

/** 127.0.x.2 … 127.0.x.251: the plan has room for this many nodes. */
export const MAX_NODES = 250;

/** Where node i's process listens, and the source address of every connection it makes. */
export const listenHost = (i: number): string => `127.0.1.${i + 2}`;

/** What node i announces to its peers; its relay listens here. */
export const announceHost = (i: number): string => `127.0.0.${i + 2}`;

/** The node whose process uses `address` (IPv4, or IPv4-mapped IPv6 as sockets report it); undefined for any other address. */
export function nodeOfListenHost(address: string | undefined): number | undefined {
  const m = /^(?:::ffff:)?127\.0\.1\.(\d+)$/.exec(address ?? '');
  const i = m ? Number(m[1]) - 2 : -1;
  return i >= 0 && i < MAX_NODES ? i : undefined;
}

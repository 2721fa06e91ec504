/** Address bans: single IPv4/IPv6 addresses or CIDR blocks (sco_banAddress). */
import { BlockList, isIP } from 'node:net';

export interface AddressBan {
  /** As the user wrote it: "1.2.3.4" or "10.0.0.0/8". */
  readonly text: string;
  readonly ip: string;
  readonly prefix: number | undefined;
}

/**
 * Parses a ban target. The machine's own address (127.0.0.1, ::1, or a block holding it) and wildcard
 * addresses are refused, as the reference refuses loopback; other loopback addresses (127.0.0.2, …)
 * can be banned: on one machine they stand in for the hosts of a local testnet (docs/network.md "Scoring and bans").
 */
export function parseAddressBan(text: string): AddressBan {
  const [ip, bits, extra] = text.trim().split('/');
  const family = isIP(ip ?? '');
  if (!ip || family === 0 || extra !== undefined) throw new Error(`invalid banned address ${text}: expected an IP address or a CIDR block`);
  const prefix = bits === undefined ? undefined : Number(bits);
  const maxBits = family === 4 ? 32 : 128;
  if (prefix !== undefined && (!Number.isInteger(prefix) || prefix < 1 || prefix > maxBits)) throw new Error(`invalid banned address ${text}: mask must be 1..${maxBits}`);
  const ban = { text: prefix === undefined ? ip : `${ip}/${prefix}`, ip, prefix };
  const own = blockListOf([ban]);
  if (/^0\.0\.0\.0$|^::$/.test(ip) || own.check('127.0.0.1', 'ipv4') || own.check('::1', 'ipv6')) {
    throw new Error(`invalid banned address ${text}: this machine's own address (127.0.0.1, ::1) and wildcard addresses cannot be banned`);
  }
  return ban;
}

/** An immutable set of bans with a fast membership check. */
export function blockListOf(bans: readonly AddressBan[]): BlockList {
  const list = new BlockList();
  for (const b of bans) {
    const type = isIP(b.ip) === 4 ? 'ipv4' : 'ipv6';
    if (b.prefix === undefined) list.addAddress(b.ip, type);
    else list.addSubnet(b.ip, b.prefix, type);
  }
  return list;
}

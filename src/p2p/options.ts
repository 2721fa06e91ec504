/** The peer-to-peer host's options (--p2p-host, --p2p-port, --max-peers) and their defaults. */

export const DEFAULT_P2P_OPTIONS = Object.freeze({
  host: '127.0.0.1',
  port: 5050,
  /** Most peer connections. */
  maxPeers: 32,
});

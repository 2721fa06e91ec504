/** What the network layer reports about a peer; the peer manager scores them (src/actors/peerManager/scoring.ts). */
export const PEER_EVENTS = [
  'successfulHandshakes', 'failedHandshakes', 'invalidNetworks', 'repeatedMessages', 'validBlocks', 'validTransactions',
  'invalidBlocks', 'invalidTransactions', 'invalidMessages', 'timeoutMessages', 'unexpectedMessages', 'invalidHeader',
] as const;
export type PeerEvent = (typeof PEER_EVENTS)[number];

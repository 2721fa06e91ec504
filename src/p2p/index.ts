/** The P2P facade: what the rest of the node may import from src/p2p. */
export { createP2P } from './host.ts';
export { AddressBook } from './addressBook.ts';
export { addressOf, parseAnnounceAddress, parsePeerAddress } from './multiaddrs.ts';
export { PEER_EVENTS, type PeerEvent } from './peerEvents.ts';
export { MalformedResponseError } from './errors.ts';
export { MAX_GOSSIP_BYTES, REQUEST_TIMEOUT_MS } from './limits.ts';
export { gossipTopics, topicScoreParams, type Topics } from './gossip/topics.ts';
export type { TxSubmission } from './gossip/txs.ts';
export { requestStatus, serveStatus, STATUS_PROTOCOL, encodeStatus, decodeStatus, type Status } from './reqresp/status.ts';
export { MAX_BLOCKS_PER_REQUEST, requestBlocksByRange } from './reqresp/blocksByRange.ts';
export { takePooledTxs } from './reqresp/pooledTxs.ts';
export { offerServices, type ServiceDeps } from './services.ts';
export type * from './types.ts';

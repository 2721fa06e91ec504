/**
 * The RPC listener owns the HTTP socket and the WebSocket connections upgraded from it, with their
 * subscriptions. Requests are served concurrently: each one only parses, reads immutable chain
 * snapshots, or asks the actors that own the data. Live events (new heads, pending transactions)
 * arrive in its mailbox from the bus and are pushed to WebSocket subscribers in order.
 */
import type { AddressInfo } from 'node:net';
import type { LiveEvent } from '../../actors/liveEvents.ts';

export type RpcListenerProtocol = {
  tell: LiveEvent;
  ask: { 'listener.address': { req: {}; res: AddressInfo } };
};

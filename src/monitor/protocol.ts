/**
 * The monitor owns the --metrics-port HTTP server: Prometheus metrics at /metrics, the status page at
 * / and its data at /status.json (docs/operations.md). Imported blocks arrive in its mailbox from the
 * bus, so the page can draw forks the best chain has already left behind.
 */
import type { AddressInfo } from 'node:net';
import type { Block } from '../chain/codec/block.ts';

export type MonitorProtocol = {
  tell: { type: 'chain.blockImported'; block: Block; best: boolean };
  ask: { 'monitor.address': { req: {}; res: AddressInfo } };
};

/**
 * The RPC listener owns the HTTP socket and the WebSocket connections upgraded from it, with their
 * subscriptions. Requests are served concurrently: each one only parses, reads immutable chain
 * snapshots, or asks the actors that own the data. Live events (new heads, pending transactions)
 * arrive in its mailbox from the bus and are pushed to WebSocket subscribers in order.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { LiveLogSource } from '../../chain/logs/liveLogs.ts';
import type { ChainView } from '../../chain/reader.ts';
import { Dispatcher, type CallObserver } from '../../rpc/dispatch.ts';
import type { Methods } from '../../rpc/method.ts';
import type { HostedGate } from '../../rpc/hosted.ts';
import { createRpcServer, listen } from '../../rpc/server.ts';
import type { RpcSwitches } from '../../rpc/switches.ts';
import { WsHub } from '../../rpc/ws.ts';
import { spawn, type Actor } from '../kernel/index.ts';
import type { LiveEvent } from '../liveEvents.ts';
import { logger } from '../../log.ts';

const log = logger('rpcListener');

export type RpcListenerProtocol = {
  tell: LiveEvent;
  ask: { 'listener.address': { req: {}; res: AddressInfo } };
};

/**
 * `switches`: what `methods` was built with (the WebSocket's own methods obey them too); `gate`: hosted
 * mode, see src/rpc/hosted.ts; `logs`: the node's one live-log source, shared with the polling filters;
 * `observe`: told of every call (metrics, debug log).
 */
export function spawnRpcListener(
  methods: Methods, switches: RpcSwitches, host: string, port: number, gate: HostedGate | undefined, reader: ChainView, logs: LiveLogSource,
  observe?: CallObserver,
): Actor<RpcListenerProtocol> {
  return spawn<RpcListenerProtocol, { server: Server; address: AddressInfo; hub: WsHub }>('rpcListener', {
    async init() {
      const server = createRpcServer(new Dispatcher(methods, observe), gate);
      const hub = new WsHub(server, methods, { reader, logs, switches, gate, observe });
      return { server, hub, address: await listen(server, host, port) };
    },
    async onTell(s, event) {
      // A push that fails (a read error) costs its subscribers that event, not the listener.
      await s.hub.publish(event).catch((err) => log.error({ err }, 'WebSocket notification failed'));
      return s;
    },
    onAsk: { 'listener.address': (s) => [s, s.address] },
    async onStop(s) {
      s.hub.close();
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
    },
  }, { mailboxSize: 50_000 });
}

/** The RPC listener's rules: serve HTTP and WebSocket requests, push live events to subscribers. */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { LiveLogSource } from '../../chain/logs/liveLogs.ts';
import type { ChainView } from '../../chain/reader.ts';
import type { Behavior } from '../../actors/kernel/index.ts';
import { logger } from '../../log.ts';
import { Dispatcher, type DispatchOptions } from '../dispatch.ts';
import type { HostedGate } from '../hosted.ts';
import type { Methods } from '../method.ts';
import { createRpcServer, listen } from '../server.ts';
import type { RpcSwitches } from '../switches.ts';
import { WsHub } from '../ws.ts';
import type { RpcListenerProtocol } from './protocol.ts';

const log = logger('rpcListener');

export interface RpcListenerDeps extends DispatchOptions {
  readonly methods: Methods;
  /** What `methods` was built with: the WebSocket's own methods obey them too. */
  readonly switches: RpcSwitches;
  readonly host: string;
  readonly port: number;
  /** Hosted mode (src/rpc/hosted.ts); undefined: every path is served. */
  readonly gate: HostedGate | undefined;
  readonly reader: ChainView;
  /** The node's one live-log source, shared with the polling filters. */
  readonly logs: LiveLogSource;
}

interface ListenerState { readonly server: Server; readonly address: AddressInfo; readonly hub: WsHub }

export function rpcListenerBehavior(deps: RpcListenerDeps): Behavior<RpcListenerProtocol, ListenerState> {
  const { methods, gate } = deps;
  return {
    async init() {
      const server = createRpcServer(new Dispatcher(methods, deps), gate);
      const hub = new WsHub(server, methods, deps);
      return { server, hub, address: await listen(server, deps.host, deps.port) };
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
  };
}

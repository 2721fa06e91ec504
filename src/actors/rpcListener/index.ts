/**
 * The RPC listener owns the HTTP socket. Requests are served concurrently: each one only parses,
 * reads immutable chain snapshots, or asks the actors that own the data.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Dispatcher } from '../../rpc/dispatch.ts';
import type { Methods } from '../../rpc/method.ts';
import type { HostedGate } from '../../rpc/hosted.ts';
import { createRpcServer, listen } from '../../rpc/server.ts';
import { spawn, type Actor } from '../kernel/index.ts';

export type RpcListenerProtocol = {
  tell: { type: 'noop' };
  ask: { 'listener.address': { req: {}; res: AddressInfo } };
};

/** `gate`: hosted mode, see src/rpc/hosted.ts. */
export function spawnRpcListener(methods: Methods, host: string, port: number, gate?: HostedGate): Actor<RpcListenerProtocol> {
  return spawn<RpcListenerProtocol, { server: Server; address: AddressInfo }>('rpcListener', {
    async init() {
      const server = createRpcServer(new Dispatcher(methods), gate);
      return { server, address: await listen(server, host, port) };
    },
    onTell: (s) => s,
    onAsk: { 'listener.address': (s) => [s, s.address] },
    async onStop(s) {
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
    },
  });
}

import { spawn, type Actor } from '../../actors/kernel/index.ts';
import { rpcListenerBehavior, type RpcListenerDeps } from './behavior.ts';
import type { RpcListenerProtocol } from './protocol.ts';

export type { RpcListenerProtocol } from './protocol.ts';
export type { RpcListenerDeps } from './behavior.ts';

export function spawnRpcListener(deps: RpcListenerDeps): Actor<RpcListenerProtocol> {
  return spawn('rpcListener', rpcListenerBehavior(deps), { mailboxSize: 50_000 });
}

import { spawn, type Actor } from '../actors/kernel/index.ts';
import { monitorBehavior, type MonitorDeps } from './behavior.ts';
import type { MonitorProtocol } from './protocol.ts';

export type { MonitorProtocol } from './protocol.ts';
export type { MonitorDeps } from './behavior.ts';

export function spawnMonitor(deps: MonitorDeps): Actor<MonitorProtocol> {
  return spawn('monitor', monitorBehavior(deps), { mailboxSize: 10_000 });
}

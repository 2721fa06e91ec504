/** The monitor's rules: answer /metrics, /status.json and the page; remember the recent blocks, forks included. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Behavior } from '../actors/kernel/index.ts';
import { logger } from '../log.ts';
import { createServer, listen } from '../rpc/server.ts';
import type { NodeMetrics } from './metrics.ts';
import { STATUS_PAGE } from './page.ts';
import type { MonitorProtocol } from './protocol.ts';
import { RecentBlocks, statusSnapshot, type StatusSources } from './status.ts';

/** Blocks the page draws: enough heights to see a fork and the uncles that point back at it. */
const RECENT_BLOCKS = 32;
const log = logger('monitor');

export interface MonitorDeps {
  readonly metrics: NodeMetrics;
  readonly sources: StatusSources;
  readonly host: string;
  readonly port: number;
}

export function monitorBehavior({ metrics, sources, host, port }: MonitorDeps): Behavior<MonitorProtocol, { server: Server; address: AddressInfo }> {
  const recent = new RecentBlocks(RECENT_BLOCKS);
  return {
    async init() {
      const { reader } = sources;
      const head = reader.head().number;
      for (let n = head > BigInt(RECENT_BLOCKS) ? head - BigInt(RECENT_BLOCKS) + 1n : 0n; n <= head; n++) {
        const block = await reader.canonicalBlock(n);
        if (block) recent.add(block);
      }
      const server = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        const answer = (status: number, type: string, body: string) => { res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }); res.end(body); };
        if (req.method !== 'GET') return answer(405, 'text/plain', 'GET only\n');
        const serve = async () => {
          if (path === '/metrics') return answer(200, metrics.registry.contentType, await metrics.registry.metrics());
          if (path === '/status.json') return answer(200, 'application/json', JSON.stringify(await statusSnapshot(sources, recent)));
          if (path === '/') return answer(200, 'text/html; charset=utf-8', STATUS_PAGE);
          return answer(404, 'text/plain', 'not found: /metrics, /status.json or /\n');
        };
        serve().catch((err) => {
          log.warn({ err }, `${path} failed`);
          if (!res.headersSent) answer(503, 'text/plain', 'node is stopping or busy\n');
        });
      });
      return { server, address: await listen(server, host, port) };
    },
    onTell(s, msg) {
      recent.add(msg.block);
      metrics.blockAdded(msg.best);
      return s;
    },
    onAsk: { 'monitor.address': (s) => [s, s.address] },
    async onStop(s) {
      s.server.closeAllConnections();
      await new Promise((r) => s.server.close(r));
    },
  };
}

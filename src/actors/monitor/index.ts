/**
 * The monitor owns the --metrics-port HTTP server: Prometheus metrics at /metrics, the status page at
 * / and its data at /status.json (docs/operations.md). Imported blocks arrive in its mailbox from the
 * bus, so the page can draw forks the best chain has already left behind.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Block } from '../../chain/codec/block.ts';
import { logger } from '../../log.ts';
import type { NodeMetrics } from '../../monitor/metrics.ts';
import { STATUS_PAGE } from '../../monitor/page.ts';
import { RecentBlocks, statusSnapshot, type StatusSources } from '../../monitor/status.ts';
import { listen } from '../../rpc/server.ts';
import { spawn, type Actor } from '../kernel/index.ts';

export type MonitorProtocol = {
  tell: { type: 'block.added'; block: Block; best: boolean };
  ask: { 'monitor.address': { req: {}; res: AddressInfo } };
};

/** Blocks the page draws: enough heights to see a fork and the uncles that point back at it. */
const RECENT_BLOCKS = 32;
const log = logger('monitor');

export function spawnMonitor(metrics: NodeMetrics, sources: StatusSources, host: string, port: number): Actor<MonitorProtocol> {
  const recent = new RecentBlocks(RECENT_BLOCKS);
  return spawn<MonitorProtocol, { server: Server; address: AddressInfo }>('monitor', {
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
  }, { mailboxSize: 10_000 });
}

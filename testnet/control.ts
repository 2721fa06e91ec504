/**
 * The testnet's HTTP control endpoint on 127.0.0.1 (docs/testnet.md, "Control endpoint"): JSON in,
 * JSON out. GET /status; POST /partition, /heal, /latency, /reorg, /nodes/<i>/(start|stop|kill). GET / is the
 * overview page of every node (testnet/overview.ts), GET /overview.json its data.
 * Commands that change the network run one at a time, in arrival order; bad input is a 400 that says
 * what was expected, an impossible command (start a node that is up) a 409.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { rpc } from '../test/helpers/rpc.ts';
import { ConditionError, type Conditions } from './conditions.ts';
import { overview, OVERVIEW_PAGE } from './overview.ts';
import { reorg, ScenarioError } from './scenarios.ts';
import { SupervisorError, type Supervisor } from './supervisor.ts';

export interface ControlDeps {
  readonly supervisor: Supervisor;
  readonly conditions: Conditions;
}

export interface ControlServer {
  readonly url: string;
  close(): Promise<void>;
}

export interface NodeStatus {
  readonly index: number;
  readonly rpcUrl?: string;
  readonly role: string;
  readonly state: string;
  readonly pid?: number;
  readonly lastExit?: string;
  /** Null when the node is not up or did not answer within STATUS_TIMEOUT_MS. */
  readonly head: { number: number; hash: string } | null;
  readonly peers: number | null;
}

class HttpError extends Error {
  constructor(readonly status: number, message: string) { super(message); }
}

const MAX_BODY_BYTES = 64 * 1024;
const STATUS_TIMEOUT_MS = 2_000;
const GROUPS_HINT = 'a list of lists of node indexes, e.g. [[0,1],[2,3]]';

export async function serveControl(deps: ControlDeps, port: number): Promise<ControlServer> {
  const { supervisor, conditions } = deps;
  let queue: Promise<unknown> = Promise.resolve();
  /** Runs `command` after the ones before it. */
  const inTurn = <T>(command: () => Promise<T> | T): Promise<T> => {
    const run = queue.then(command);
    queue = run.catch(() => {});
    return run;
  };

  async function status() {
    const nodes = await Promise.all(Array.from({ length: supervisor.size }, (_, i) => nodeStatus(supervisor, i)));
    return { nodes, ...conditions.view() };
  }

  async function route(method: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    const post = (f: () => Promise<unknown> | unknown) => {
      if (method !== 'POST') throw new HttpError(405, `${path} takes POST`);
      return inTurn(f);
    };
    if (path === '/status') {
      if (method !== 'GET') throw new HttpError(405, '/status takes GET');
      return status();
    }
    if (path === '/partition') return post(() => { conditions.partition(groupsOf(body.groups) ?? []); return conditions.view(); });
    if (path === '/heal') return post(() => { conditions.heal(); return conditions.view(); });
    if (path === '/latency') return post(() => { conditions.setLatency(numberOf(body.ms, 'ms'), groupsOf(body.groups)); return conditions.view(); });
    if (path === '/reorg') return post(() => reorg(deps, numberOf(body.depth, 'depth'), groupsOf(body.groups)));
    const m = /^\/nodes\/(\d+)\/(start|stop|kill)$/.exec(path);
    if (m) {
      const i = Number(m[1]);
      return post(async () => {
        if (m[2] === 'start') await supervisor.start(i);
        else await supervisor.stop(i, m[2] === 'kill' ? 'SIGKILL' : 'SIGTERM');
        return supervisor.describe(i);
      });
    }
    throw new HttpError(404, `no command at ${path}: GET /status; POST /partition, /heal, /latency, /reorg, /nodes/<i>/start|stop|kill`);
  }

  const server = createServer((req, res) => {
    if (req.method === 'GET' && (req.url === '/' || req.url === '/overview.json')) {
      const page = req.url === '/' ? Promise.resolve(OVERVIEW_PAGE) : overview(supervisor).then((o) => JSON.stringify(o));
      void page.then((body) => {
        res.writeHead(200, { 'content-type': req.url === '/' ? 'text/html; charset=utf-8' : 'application/json', 'cache-control': 'no-store' });
        res.end(body);
      });
      return;
    }
    void (async () => {
      try {
        const body = await readBody(req);
        reply(res, 200, await route(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!, body));
      } catch (err) {
        const status = err instanceof HttpError ? err.status
          : err instanceof ConditionError || err instanceof ScenarioError ? 400
            : err instanceof SupervisorError ? 409 : 500;
        reply(res, status, { error: (err as Error).message });
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

async function nodeStatus(supervisor: Supervisor, i: number): Promise<NodeStatus> {
  const d = supervisor.describe(i);
  const base = { index: i, rpcUrl: d.rpcUrl, role: d.role, state: d.state, pid: d.pid, lastExit: d.lastExit };
  if (d.state !== 'up') return { ...base, head: null, peers: null };
  const ask = <T>(method: string, params: unknown[] = []) =>
    Promise.race([rpc<T>(d.rpcUrl!, method, params), new Promise<null>((r) => setTimeout(r, STATUS_TIMEOUT_MS, null).unref())]).catch(() => null);
  const [block, peers] = await Promise.all([ask<{ number: string; hash: string }>('eth_getBlockByNumber', ['latest', false]), ask<string>('net_peerCount')]);
  return { ...base, head: block && { number: Number(block.number), hash: block.hash }, peers: peers === null ? null : Number(peers) };
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY_BYTES) { reject(new HttpError(413, `the body exceeds ${MAX_BODY_BYTES} bytes`)); req.destroy(); }
    });
    req.on('error', reject);
    req.on('end', () => {
      if (!text.trim()) return resolve({});
      let body: unknown;
      try { body = JSON.parse(text); } catch { return reject(new HttpError(400, 'the body is not JSON')); }
      if (typeof body !== 'object' || body === null || Array.isArray(body)) return reject(new HttpError(400, 'the body must be a JSON object'));
      resolve(body as Record<string, unknown>);
    });
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body, null, 2)}\n`);
}

function numberOf(v: unknown, name: string): number {
  if (typeof v !== 'number') throw new HttpError(400, `"${name}" must be a number`);
  return v;
}

function groupsOf(v: unknown): number[][] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || !v.every((g) => Array.isArray(g) && g.every((i) => typeof i === 'number'))) throw new HttpError(400, `"groups" must be ${GROUPS_HINT}`);
  return v as number[][];
}

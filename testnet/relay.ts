/**
 * The relay in front of one node (docs/testnet.md, "Relays"): listens on the address the node
 * announces and forwards each connection to the node's own address, leaving from the announced address
 * of the node the connection came from, so the node sees its peer where that peer says it is. Between
 * partitioned groups it refuses new connections and closes live ones; between groups with latency it
 * holds every chunk, both ways, for the configured delay.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { Conditions } from './conditions.ts';
import { announceHost, listenHost, nodeOfListenHost } from './hosts.ts';

/** Bytes held back per direction before the sending side is paused. */
const HIGH_WATER_BYTES = 1 << 20;

interface Link {
  /** The node at the other end, when the source address names one. */
  readonly from: number | undefined;
  /** Ends both sockets; later calls do nothing. */
  readonly close: () => void;
}

export class Relay {
  readonly #server: Server = createServer((socket) => this.#accept(socket));
  readonly #links = new Set<Link>();
  readonly #onChange = () => this.#enforce();

  /** Relays connections to node `index` listening on `port` (the relay takes the same port on the announced host). */
  constructor(readonly index: number, readonly port: number, private readonly conditions: Conditions) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(this.port, announceHost(this.index), () => { this.#server.off('error', reject); resolve(); });
    });
    this.conditions.on('change', this.#onChange);
  }

  /** Live connections to this node, by the node they come from (undefined: from elsewhere). */
  links(): (number | undefined)[] {
    return [...this.#links].map((l) => l.from);
  }

  async close(): Promise<void> {
    this.conditions.off('change', this.#onChange);
    for (const l of this.#links) l.close();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #accept(inbound: Socket): void {
    const from = nodeOfListenHost(inbound.remoteAddress);
    if (from !== undefined && this.conditions.cut(from, this.index)) return void inbound.destroy();
    const outbound = connect({ host: listenHost(this.index), port: this.port, ...(from !== undefined ? { localAddress: announceHost(from) } : {}) });
    // Whichever side fails or closes first takes the other with it, once. (Not resetAndDestroy: a
    // reset socket can leave a request libuv never completes, and the process spins at exit.)
    const close = () => {
      if (!this.#links.delete(link)) return;
      inbound.destroy();
      outbound.destroy();
    };
    const link: Link = { from, close };
    this.#links.add(link);
    for (const s of [inbound, outbound]) { s.on('error', close); s.on('close', close); }
    const delay = () => (from === undefined ? 0 : this.conditions.delayMs(from, this.index));
    forward(inbound, outbound, delay);
    forward(outbound, inbound, delay);
  }

  /** Closes the live connections the current partition cuts. */
  #enforce(): void {
    for (const l of this.#links) if (l.from !== undefined && this.conditions.cut(l.from, this.index)) l.close();
  }
}

/**
 * Copies `from` to `to`, holding each chunk `delayMs()` ms (read as it arrives) without reordering,
 * and pauses `from` while more than HIGH_WATER_BYTES wait (queued here or in `to`'s buffer).
 */
function forward(from: Socket, to: Socket, delayMs: () => number): void {
  const queue: { at: number; chunk: Buffer }[] = [];
  let queued = 0;
  let timer: NodeJS.Timeout | undefined;
  let ended = false;
  const backlog = () => queued + to.writableLength;
  const release = () => {
    timer = undefined;
    const now = Date.now();
    while (queue.length && queue[0]!.at <= now) {
      const { chunk } = queue.shift()!;
      queued -= chunk.length;
      to.write(chunk);
    }
    if (queue.length) timer = setTimeout(release, queue[0]!.at - now);
    else if (ended) to.end();
    if (from.isPaused() && backlog() < HIGH_WATER_BYTES) from.resume();
  };
  from.on('data', (chunk: Buffer) => {
    const ms = delayMs();
    if (ms === 0 && !queue.length) to.write(chunk);
    else {
      const at = Math.max(Date.now() + ms, queue.at(-1)?.at ?? 0);
      queue.push({ at, chunk });
      queued += chunk.length;
      if (!timer) timer = setTimeout(release, at - Date.now());
    }
    if (backlog() >= HIGH_WATER_BYTES) from.pause();
  });
  to.on('drain', () => { if (from.isPaused() && backlog() < HIGH_WATER_BYTES) from.resume(); });
  from.on('end', () => { ended = true; if (!queue.length && !timer) to.end(); });
  to.on('close', () => clearTimeout(timer));
}

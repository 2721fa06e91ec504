/**
 * The RPC worker pool (docs/rpc-workers.md, "Workers"): worker threads that run the requests which
 * execute EVM code, a few per worker at a time, so the main thread's event loop only parses,
 * reads and writes. Each request has a deadline from its arrival; a request that passes it, or whose
 * client goes away, is dropped from the queue, or its worker is terminated (an EVM loop cannot be
 * interrupted otherwise) and replaced on the next demand. The queue is bounded: past it a request is
 * refused at once. Every request settles: with the worker's answer (JSON text) or with an error.
 */
import { Worker } from 'node:worker_threads';
import type { NodeEvent } from '../../actors/events.ts';
import type { ActorRef } from '../../actors/kernel/index.ts';
import { NodeError } from '../../errors.ts';
import { RpcError } from '../errors.ts';
import { JsonStream, JsonText } from '../json.ts';
import { WORKER_IDLE_MS, type RpcWorkerOptions } from './options.ts';
import type { FromWorker, KnownHead, ToWorker, WorkerInit, WorkerRequest } from './protocol.ts';
import type { HeadInfo } from '../../chain/reader.ts';
import type { StateStep } from '../../chain/storage/cacheChanges.ts';
import { encodeFullHeader } from '../../chain/codec/header.ts';
import type { PendingSnapshot } from '../pending.ts';
import { logger } from '../../log.ts';
import { workerResourceLimits } from '../../threads.ts';

const log = logger('rpcWorkers');

/**
 * Requests a worker holds at once. More than one hides the messages' latency (a worker picks up the
 * next request as soon as one awaits the database); a worker terminated for one of them (deadline,
 * client gone) hands the others back to the queue.
 */
export const IN_FLIGHT_PER_WORKER = 16;
interface Job {
  readonly method: string;
  readonly params: unknown[];
  /** Whether the client takes the answer as a stream. */
  readonly streamable: boolean;
  /** The pending block, when the request names it. */
  readonly pending?: PendingSnapshot;
  /** Starts the deadline (once). */
  startClock(): void;
  /** A chunk of a streamed answer: the first resolves the request with a JsonStream. */
  chunk(bytes: Uint8Array, written: (bytes: number) => void): void;
  /** Whether chunks have gone out: the request cannot be run again. */
  readonly streaming: boolean;
  /** Ends the request: its answer (the rest of a streamed one), or an error (which cuts a streamed one). */
  settle(outcome: { text: string } | { error: Error }): void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  /** Requests sent to the worker and not answered yet, by message id. */
  readonly jobs: Map<number, Job>;
  /** Set while the worker holds no request: it retires when this fires. */
  idle?: NodeJS.Timeout;
  /** The key of the last pending block sent to the worker (it keeps that one). */
  pendingKey?: number;
  /** When the worker was last handed a request (performance.now()). */
  lastRequestAt?: number;
}

/** How a request runs: its client's signal, a shorter deadline, whether its answer may stream, the pending block it names. */
export interface RunOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
  readonly streamable?: boolean;
  readonly pending?: PendingSnapshot;
}

/** The pending block a job names, as its worker is sent it: whole when the worker does not hold it yet. */
function pendingFor(slot: Slot, job: Job): WorkerRequest['pending'] {
  if (!job.pending) return undefined;
  const { key } = job.pending;
  if (slot.pendingKey === key) return { key };
  slot.pendingKey = key;
  return { key, payload: job.pending.payload() };
}

/** How long after its last request a worker is still told new heads. */
const HEADS_AFTER_REQUEST_MS = 1_000;

/** Trie nodes a head's message carries at most, in bytes: a longer run's nodes are read from disk when needed, and its call VMs start over. */
const HEAD_NODES_MAX_BYTES = 256 * 1024;

export type WorkerHeadProtocol = {
  tell: { type: 'head'; head: HeadInfo; nodes?: ReadonlyMap<string, Uint8Array>; states?: readonly StateStep[] };
  ask: Record<never, never>;
};

/** The bus event the workers hear: the chain's new head, the trie nodes its blocks stored and their state steps. */
export const workerHeadEvent = (e: NodeEvent): WorkerHeadProtocol['tell'] | undefined =>
  e.type === 'chain.headChanged' ? { type: 'head', head: e.head, nodes: e.nodes, states: e.states } : undefined;

/** What a worker needs to follow `head` without reading the database (the nodes and steps only while they are few). */
function knownHead({ head, nodes, states }: WorkerHeadProtocol['tell']): KnownHead {
  let bytes = 0;
  for (const node of nodes?.values() ?? []) bytes += node.byteLength;
  const few = bytes <= HEAD_NODES_MAX_BYTES;
  return { header: encodeFullHeader(head.header), totalDifficulty: head.totalDifficulty, nodes: few ? nodes : undefined, states: few ? states : undefined };
}

/** A worker's entry (docs/rpc-workers.md, "Entry"): src/workerMain.ts, or in the bundle's folder dist/worker.mjs (testnet/bundle.ts builds it with dist/main.mjs). */
const ENTRY = new URL(import.meta.url.endsWith('.ts') ? '../../workerMain.ts' : './worker.mjs', import.meta.url);

/**
 * What a worker kept warm runs once it is ready, before any client asks, its answers dropped: a transfer's
 * estimate, and a call of a creation whose code stores, loads, hashes, logs and calls a precompile, as contract
 * calls do. It makes the worker's first call VM and compiles its call path, which a test run's first estimate
 * paid for (docs/performance.md, "The first calls of a test run").
 */
export const FIRST_REQUESTS: readonly [string, unknown[]][] = [
  ['eth_estimateGas', [{ to: `0x${'00'.repeat(20)}` }]],
  // SSTORE(0, 1), SLOAD(0), MSTORE, KECCAK256, MSTORE, LOG0, CALLDATALOAD, CALL(gas, 4, 0, 0, 32, 0, 32), RETURN(0, 32)
  ['eth_call', [{ data: '0x600160005560005460005260206000206000526020600060a0600035506020600060206000600060045af15060206000f3' }, 'latest']],
];

export class RpcWorkerPool {
  readonly #slots = new Set<Slot>();
  readonly #queue: Job[] = [];
  #nextId = 0;
  #closed = false;
  #pumpScheduled = false;

  /** Workers kept running (options.warm), never more than the pool's size. */
  readonly #kept: number;

  /** `head`: the hash of the head a request is answered at, taken when a worker picks the request up. */
  constructor(readonly options: RpcWorkerOptions, private readonly init: WorkerInit, private readonly head: () => Uint8Array) {
    this.#kept = Math.min(options.warm ?? 0, options.size);
  }

  /**
   * Runs `method` on a worker; resolves with its result as JSON text, or when `streamable` and the
   * result is a large trace, as a JsonStream once its first chunk arrives. `timeoutMs` may shorten
   * the pool's deadline, which also ends a stream still running.
   */
  run(method: string, params: unknown[], opts: RunOptions = {}): Promise<JsonText | JsonStream> {
    const { signal, timeoutMs = this.options.timeoutMs, streamable = false, pending } = opts;
    if (this.#closed) return Promise.reject(new NodeError('UNAVAILABLE', 'the node is stopping'));
    if (signal?.aborted) return Promise.reject(new NodeError('UNAVAILABLE', 'the client went away'));
    const waiting = this.#waiting();
    if (waiting >= this.options.maxQueued) {
      return Promise.reject(new NodeError('LIMIT_EXCEEDED',
        `node busy: ${this.#slots.size} workers busy and ${waiting} requests waiting for ${method} and the like; retry later`));
    }
    return new Promise((resolve, reject) => {
      const onAbort = () => this.#cancel(job, new NodeError('UNAVAILABLE', 'the client went away'));
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      let stream: JsonStream | undefined;
      const job: Job = {
        method, params, streamable, pending,
        get streaming() { return stream !== undefined; },
        startClock: () => {
          timer ??= setTimeout(() => this.#cancel(job, new NodeError('LIMIT_EXCEEDED',
            `${method} did not finish within ${timeoutMs} ms (this node's --rpc-evm-timeout is ${this.options.timeoutMs} ms): `
            + 'ask for less work (less gas, a callTracer, fewer blocks) or ask the operator for a longer timeout')), timeoutMs);
        },

        chunk(bytes, written) {
          if (settled) return;
          if (stream) return stream.push(bytes);
          stream = new JsonStream(bytes, written);
          resolve(stream);
        },
        settle(outcome) {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if (stream) return 'text' in outcome ? stream.end(outcome.text) : stream.fail(outcome.error);
          if ('text' in outcome) resolve(new JsonText(outcome.text));
          else reject(outcome.error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.#serving()) job.startClock();
      this.#queue.push(job);
      this.#pumpSoon();
    });
  }

  /**
   * Queued requests beyond what the ready workers have room for: those that wait. Requests queued
   * within this turn of the event loop are handed over at its end (#pumpSoon), and until then the
   * ones a worker has room for do not count as waiting.
   */
  #waiting(): number {
    let room = 0;
    for (const slot of this.#slots) if (slot.ready) room += Math.max(0, IN_FLIGHT_PER_WORKER - slot.jobs.size);
    return Math.max(0, this.#queue.length - room);
  }

  /**
   * Hands the queue to the workers once the requests of this turn of the event loop have arrived: the
   * requests that arrive together (the HTTP requests read in one poll) go to a worker in one message,
   * not one each. With two workers sharing a bench's 32 requests, one message per request made about
   * three quarters of the messages and cost the main thread and the workers 40 % more CPU per call.
   */
  #pumpSoon(): void {
    if (this.#pumpScheduled) return;
    this.#pumpScheduled = true;
    setImmediate(() => {
      this.#pumpScheduled = false;
      this.#pump();
    });
  }

  /**
   * The bus subscriber that tells the ready workers each new head as it is published: each follows it and
   * moves a call VM to its state while the main thread answers the requests the block released and the
   * client reads them, not when its next call arrives (docs/rpc-workers.md, "Reads"). Only workers handed a
   * request within HEADS_AFTER_REQUEST_MS are told: a loop of sends alone keeps no worker busy.
   */
  readonly headRef: ActorRef<WorkerHeadProtocol> = {
    name: 'rpc workers',
    tell: (told) => {
      const since = performance.now() - HEADS_AFTER_REQUEST_MS;
      let known: KnownHead | undefined;
      for (const slot of this.#slots) {
        if (!slot.ready || slot.lastRequestAt! <= since) continue;
        known ??= knownHead(told);
        slot.worker.postMessage({ head: told.head.hash, known } satisfies ToWorker);
      }
    },
    ask: () => Promise.reject(new Error('the worker pool answers no asks')),
  };

  /** Starts the workers the pool keeps warm, one after the other. */
  warmUp(): void {
    if (this.#closed || this.#slots.size >= this.#kept) return;
    if ([...this.#slots].every((s) => s.ready)) this.#spawn();
  }

  /** Whether no request runs on a worker or waits for one. */
  idle(): boolean {
    if (this.#queue.length) return false;
    for (const slot of this.#slots) if (slot.jobs.size) return false;
    return true;
  }

  /** Workers running or starting, those ready, requests they are running, and requests waiting: for tests and the benchmark. */
  stats(): { workers: number; ready: number; running: number; queued: number } {
    let running = 0;
    let ready = 0;
    for (const slot of this.#slots) {
      running += slot.jobs.size;
      if (slot.ready) ready++;
    }
    return { workers: this.#slots.size, ready, running, queued: this.#queue.length };
  }

  /** Refuses what waits, and stops the workers: an idle one closes its database first, a busy one is terminated. */
  async close(): Promise<void> {
    this.#closed = true;
    const stopping = new NodeError('UNAVAILABLE', 'the node is stopping');
    for (const job of this.#queue.splice(0)) job.settle({ error: stopping });
    await Promise.all([...this.#slots].map((slot) => (slot.jobs.size || !slot.ready ? this.#retire(slot, stopping) : this.#stop(slot))));
  }

  /** Stops an idle worker, which closes its database first. */
  async #stop(slot: Slot): Promise<void> {
    if (!this.#slots.delete(slot)) return;
    clearTimeout(slot.idle);
    const exited = new Promise((r) => slot.worker.once('exit', r));
    slot.worker.postMessage({ stop: true } satisfies ToWorker);
    await exited;
  }

  /** Starts the idle countdown of a worker that holds no request: when it ends, the worker stops unless the pool keeps it warm. */
  #restIfIdle(slot: Slot): void {
    if (slot.jobs.size || !this.#slots.has(slot)) return;
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (this.#slots.size > this.#kept) void this.#stop(slot);
    }, this.options.idleMs ?? WORKER_IDLE_MS).unref();
  }

  /**
   * Whether a worker is ready. A request's deadline runs from its arrival, but not while no worker
   * has started yet (they start on demand, and after one was terminated; under tsx that takes seconds).
   */
  #serving(): boolean {
    for (const slot of this.#slots) if (slot.ready) return true;
    return false;
  }

  /**
   * Hands waiting requests to the least busy ready workers, up to IN_FLIGHT_PER_WORKER each, one
   * message per worker; starts a worker when all are full.
   */
  #pump(): void {
    const sending = new Map<Slot, WorkerRequest[]>();
    while (this.#queue.length) {
      let slot: Slot | undefined;
      for (const s of this.#slots) if (s.ready && s.jobs.size < IN_FLIGHT_PER_WORKER && (!slot || s.jobs.size < slot.jobs.size)) slot = s;
      if (!slot) {
        if (this.#slots.size < this.options.size && [...this.#slots].every((s) => s.ready)) this.#spawn();
        break;
      }
      const job = this.#queue.shift()!;
      job.startClock();
      const id = ++this.#nextId;
      clearTimeout(slot.idle);
      slot.jobs.set(id, job);
      slot.lastRequestAt = performance.now();
      const requests = sending.get(slot) ?? [];
      if (!requests.length) sending.set(slot, requests);
      requests.push({ id, method: job.method, params: job.params, head: this.head(), stream: job.streamable, pending: pendingFor(slot, job) });
    }
    for (const [slot, requests] of sending) slot.worker.postMessage({ requests } satisfies ToWorker);
  }

  #spawn(): void {
    const worker = new Worker(ENTRY, { workerData: this.init, resourceLimits: workerResourceLimits() });
    const slot: Slot = { worker, ready: false, jobs: new Map() };
    this.#slots.add(slot);
    worker.on('message', (msg: FromWorker) => {
      if ('ready' in msg) {
        slot.ready = true;
        for (const job of this.#queue) job.startClock();
        this.#pump();
        // A worker started with nothing to run (kept warm) runs requests of its own at the head now.
        if (!slot.jobs.size) for (const [method, params] of FIRST_REQUESTS) void this.run(method, params).catch(() => undefined);
        this.warmUp();
        return this.#restIfIdle(slot);
      }
      if ('chunk' in msg) {
        const { id } = msg.chunk;
        return slot.jobs.get(id)?.chunk(msg.chunk.bytes, (bytes) => {
          if (this.#slots.has(slot)) slot.worker.postMessage({ written: { id, bytes } } satisfies ToWorker);
        });
      }
      for (const answer of msg.answers) {
        const job = slot.jobs.get(answer.id);
        slot.jobs.delete(answer.id);
        job?.settle('text' in answer ? answer : { error: new RpcError(answer.error.code, answer.error.message, answer.error.data) });
      }
      this.#pump();
      this.#restIfIdle(slot);
    });
    const lost = (err: Error) => {
      if (!this.#slots.has(slot)) return; // retired on purpose
      const running = [...slot.jobs.values()].map((j) => j.method);
      log.error(`a worker stopped${running.length ? ` while running ${running.join(', ')}` : ''}: ${err.message}`);
      void this.#retire(slot, new NodeError('UNAVAILABLE', `the RPC worker running this request stopped: ${err.message}`));
      // A worker that stops before it is ready would fail every request: those waiting get its error,
      // and it is not started again until a request asks (a warm one would fail the same way, again and again).
      if (!slot.ready && this.#slots.size === 0) {
        for (const job of this.#queue.splice(0)) job.settle({ error: new NodeError('UNAVAILABLE', `no RPC worker could start: ${err.message}`) });
        return;
      }
      this.#pump();
      this.warmUp();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`exit code ${code}`)));
  }

  /**
   * Drops a waiting job, or stops the worker running it (the EVM cannot be interrupted otherwise): the
   * other requests that worker held go back to the front of the queue (reads can run again), with
   * the deadline they have: a new one would let a queue of heavy requests outlive every deadline.
   * A request whose answer is partly sent already cannot run again: it fails with `error` too.
   */
  #cancel(job: Job, error: Error): void {
    const queued = this.#queue.indexOf(job);
    if (queued >= 0) this.#queue.splice(queued, 1);
    else {
      const slot = [...this.#slots].find((s) => [...s.jobs.values()].includes(job));
      if (slot) {
        const rerun: Job[] = [];
        for (const [id, j] of slot.jobs) {
          if (j === job || j.streaming) continue;
          rerun.push(j);
          slot.jobs.delete(id);
        }
        // A worker kept warm is replaced once this one is gone.
        void this.#retire(slot, error).then(() => this.warmUp());
        this.#queue.unshift(...rerun);
      }
    }
    job.settle({ error });
    this.#pump();
  }

  /** Takes the slot out of the pool and ends its worker, failing what it still held; a replacement starts on the next demand. */
  async #retire(slot: Slot, error: Error): Promise<void> {
    this.#slots.delete(slot);
    clearTimeout(slot.idle);
    for (const job of slot.jobs.values()) job.settle({ error });
    slot.jobs.clear();
    await slot.worker.terminate();
  }
}

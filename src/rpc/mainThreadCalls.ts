/**
 * `eth_call` and `eth_estimateGas` at the head, run on the main thread while no worker has anything to do
 * (docs/rpc-workers.md, "Calls on the main thread"). A test suite asks them one at a time, each right after
 * a block: here they skip two messages between threads and a worker's own move to the new head, and run on
 * the code and caches the block just warmed. A call that runs longer than its budget is stopped and handed
 * to the workers, so no call holds the thread that builds blocks and answers every other request.
 */
import type { ActorRef } from '../actors/kernel/index.ts';
import { CallExecutor } from '../chain/calls.ts';
import { CallOverBudget } from '../chain/execution/interpreter/callBudget.ts';
import type { ChainView } from '../chain/reader.ts';
import type { MainThreadCallRunner } from './deps.ts';
import type { CallContext, MethodDef } from './method.ts';
import { ethCallMethods } from './modules/eth/calls.ts';
import { FIRST_REQUESTS, type WorkerHeadProtocol } from './workers/pool.ts';

/**
 * How long a call may run here before it is stopped and sent to a worker: a test's calls take well under a
 * millisecond, and a block waits at most this long behind one.
 */
const CALL_BUDGET_MS = 5;

/**
 * A call comes after fewer than RECENT_CALLS others within RECENT_MS, and alone in its turn of the event loop,
 * or it goes to the workers: a test suite asks one at a time, a load many at once and thousands a second.
 * Between a load's turns the workers can be idle for a moment, and the main thread, which parses the load's
 * requests, would take its calls.
 */
const RECENT_CALLS = 8;
const RECENT_MS = 5;

/** The block selectors that name the head: absent (both methods default to `latest`) or `latest`. */
const atHead = (selector: unknown) => selector === undefined || selector === 'latest';

export class MainThreadCalls implements MainThreadCallRunner {
  readonly #calls: CallExecutor;
  readonly #methods: Readonly<Record<string, MethodDef>>;
  #busy = false;
  /** When the last RECENT_CALLS calls came (performance.now()), oldest at #nextArrival. */
  readonly #arrivals = new Float64Array(RECENT_CALLS);
  #nextArrival = 0;
  /** Calls that came so far: one that comes after a call in the same turn sends that call to the workers. */
  #arrived = 0;
  #warming: Promise<void> | undefined;
  #served = 0;
  #stopped = 0;

  constructor(reader: ChainView, gasCap: bigint) {
    // One VM: a second call that comes meanwhile goes to the workers.
    this.#calls = new CallExecutor(reader, 1);
    const { eth_call, eth_estimateGas } = ethCallMethods({ reader, gasCap, calls: this.#calls });
    this.#methods = { eth_call, eth_estimateGas };
  }

  /** The bus subscriber that takes each new head's state steps, so the VM moves to the head with its caches. */
  readonly headRef: ActorRef<WorkerHeadProtocol> = {
    name: 'main-thread calls',
    tell: ({ states }) => {
      if (states) this.#calls.remember(states);
    },
    ask: () => Promise.reject(new Error('main-thread calls answer no asks')),
  };

  /**
   * Runs `method` here when it is one of these, names the head, the workers are idle, no other call runs here
   * and calls are not coming as a load: its answer (an error of the call's own is thrown as ever), or undefined
   * when it did not run or was stopped past its budget.
   */
  async run(method: string, params: unknown[], workersIdle: () => boolean, ctx?: CallContext): Promise<{ readonly value: unknown } | undefined> {
    const def = this.#methods[method];
    if (!def) return undefined;
    const arrived = ++this.#arrived;
    const now = performance.now();
    const quiet = now - this.#arrivals[this.#nextArrival]! > RECENT_MS;
    this.#arrivals[this.#nextArrival] = now;
    this.#nextArrival = (this.#nextArrival + 1) % RECENT_CALLS;
    if (!quiet || this.#busy || !atHead(params[1])) return undefined;
    this.#busy = true;
    // After the turn's other requests were read: one of them a call, or a worker busy, and this one goes there too.
    await new Promise((resolve) => setImmediate(resolve));
    if (this.#arrived !== arrived || !workersIdle()) {
      this.#busy = false;
      return undefined;
    }
    this.#calls.deadline = performance.now() + CALL_BUDGET_MS;
    try {
      const value = await def.call(params, ctx);
      this.#served++;
      return { value };
    } catch (err) {
      if (!(err instanceof CallOverBudget)) {
        this.#served++;
        throw err;
      }
      this.#stopped++;
      return undefined;
    } finally {
      this.#calls.deadline = undefined;
      this.#busy = false;
    }
  }

  /**
   * Runs the requests a kept worker starts with (src/rpc/workers/pool.ts), without a budget and their answers
   * dropped: the first call of a test run would otherwise compile this path and be stopped for it. Calls that
   * come meanwhile go to the workers. Runs once; settles when done.
   */
  warmUp(): Promise<void> {
    return (this.#warming ??= (async () => {
      this.#busy = true;
      try {
        for (const [method, params] of FIRST_REQUESTS) await this.#methods[method]!.call(params).catch(() => undefined);
      } finally {
        this.#busy = false;
      }
    })());
  }

  /** Calls answered here and calls stopped past their budget: for tests and the metrics. */
  stats(): { served: number; stopped: number } {
    return { served: this.#served, stopped: this.#stopped };
  }
}

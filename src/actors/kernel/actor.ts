/**
 * The actor kernel: a mailbox per actor, one message handled at a time, `tell` (fire and forget)
 * and `ask` (typed reply with a deadline), bounded queues, and supervision on failure.
 *
 * Overflow rule: a mailbox holds at most `mailboxSize` messages; a `tell` or `ask` past that
 * limit is refused at once with MailboxFullError (the sender decides whether to drop or retry),
 * so a flood can never grow memory without bound.
 */
import { logger } from '../../log.ts';

export interface Protocol {
  tell: { type: string };
  ask: Record<string, { req: unknown; res: unknown }>;
}

export interface ActorRef<P extends Protocol> {
  readonly name: string;
  tell(msg: P['tell']): void;
  ask<K extends keyof P['ask'] & string>(type: K, req: P['ask'][K]['req'], timeoutMs?: number): Promise<P['ask'][K]['res']>;
}

type AskHandlers<P extends Protocol, S> = {
  [K in keyof P['ask']]: (state: S, req: P['ask'][K]['req']) => Promise<[S, P['ask'][K]['res']]> | [S, P['ask'][K]['res']];
};

export interface Behavior<P extends Protocol, S> {
  init(): S | Promise<S>;
  onTell(state: S, msg: P['tell']): S | Promise<S>;
  onAsk: AskHandlers<P, S>;
  /**
   * Frees what one state holds (its timers, machines, hosts): when the actor stops, and before a
   * restart initialises a new state. What the actor was given (a store, a journal) its spawner closes.
   */
  onStop?(state: S): void | Promise<void>;
}

export type RestartPolicy =
  | { kind: 'restart'; maxRestarts: number; withinMs: number; backoffMs: (attempt: number) => number }
  | { kind: 'escalate' };

export class MailboxFullError extends Error {
  constructor(actor: string, size: number) {
    super(`actor ${actor} is overloaded: its mailbox holds ${size} messages`);
  }
}
export class AskTimeoutError extends Error {
  constructor(actor: string, type: string, timeoutMs: number) {
    super(`actor ${actor} did not answer ${type} within ${timeoutMs} ms`);
  }
}
export class ActorStoppedError extends Error {
  constructor(actor: string) {
    super(`actor ${actor} is stopped`);
  }
}

export const DEFAULT_ASK_TIMEOUT_MS = 5_000;

type Envelope<P extends Protocol> =
  | { kind: 'tell'; msg: P['tell'] }
  | { kind: 'ask'; type: string; req: unknown; resolve: (v: unknown) => void; reject: (e: unknown) => void; settled: () => boolean };

export interface SpawnOptions {
  mailboxSize?: number;
  policy?: RestartPolicy;
  /** Called when the actor gives up (escalate policy, or restarts exhausted). */
  onEscalate?: (name: string, error: unknown) => void;
}

/** A running actor: its ref plus lifecycle controls held by whoever spawned it. */
export interface Actor<P extends Protocol> {
  ref: ActorRef<P>;
  /** Resolves once `init` has run. Rejects if it failed and the policy gave up. */
  ready: Promise<void>;
  /** Takes no more messages: queued asks are rejected, the one in flight finishes, then `onStop` runs. */
  stop(): Promise<void>;
  queueLength(): number;
}

export function spawn<P extends Protocol, S>(name: string, behavior: Behavior<P, S>, opts: SpawnOptions = {}): Actor<P> {
  const mailboxSize = opts.mailboxSize ?? 10_000;
  const policy: RestartPolicy = opts.policy ?? { kind: 'escalate' };
  const queue: Envelope<P>[] = [];
  let state: S | undefined;
  let stopped = false;
  let inFlight: Promise<void> = Promise.resolve();
  let stopping: Promise<void> | undefined;
  let restarts: number[] = [];
  let wake: (() => void) | undefined;

  const enqueue = (env: Envelope<P>) => {
    if (stopped) throw new ActorStoppedError(name);
    if (queue.length >= mailboxSize) throw new MailboxFullError(name, queue.length);
    queue.push(env);
    wake?.();
  };

  const ref: ActorRef<P> = {
    name,
    tell(msg) {
      enqueue({ kind: 'tell', msg });
    },
    ask(type, req, timeoutMs = DEFAULT_ASK_TIMEOUT_MS) {
      return new Promise((resolve, reject) => {
        let done = false;
        const timer = timeoutMs > 0
          ? setTimeout(() => { done = true; reject(new AskTimeoutError(name, type, timeoutMs)); }, timeoutMs)
          : undefined;
        enqueue({
          kind: 'ask', type, req,
          resolve: (v) => { if (!done) { done = true; clearTimeout(timer); resolve(v as never); } },
          reject: (e) => { if (!done) { done = true; clearTimeout(timer); reject(e); } },
          settled: () => done,
        });
      });
    },
  };

  async function handle(env: Envelope<P>): Promise<void> {
    if (env.kind === 'ask') {
      if (env.settled()) return; // the caller gave up: do not do the work
      const handler = behavior.onAsk[env.type] as ((s: S, r: unknown) => Promise<[S, unknown]> | [S, unknown]) | undefined;
      if (!handler) { env.reject(new Error(`actor ${name} has no handler for ${env.type}`)); return; }
      try {
        const [next, res] = await handler(state as S, env.req);
        state = next;
        env.resolve(res);
      } catch (err) {
        // A failed ask rejects its caller; the actor's state is unchanged and it keeps serving.
        env.reject(err);
      }
      return;
    }
    state = await behavior.onTell(state as S, env.msg);
  }

  async function supervise(err: unknown): Promise<boolean> {
    if (policy.kind === 'escalate') return false;
    const now = Date.now();
    restarts = restarts.filter((t) => now - t < policy.withinMs);
    if (restarts.length >= policy.maxRestarts) return false;
    restarts.push(now);
    await new Promise((r) => setTimeout(r, policy.backoffMs(restarts.length)));
    logger(name).error({ err }, 'restarting after failure');
    const failed = state;
    state = undefined;
    if (failed !== undefined) {
      try { await behavior.onStop?.(failed); } catch (e) { logger(name).warn({ err: e }, 'releasing the failed state failed'); }
    }
    state = await behavior.init();
    return true;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      const env = queue.shift();
      if (!env) {
        await new Promise<void>((r) => { wake = r; });
        wake = undefined;
        continue;
      }
      try {
        inFlight = handle(env);
        await inFlight;
      } catch (err) {
        if (stopped) break; // failures while stopping (peers already gone) are not supervised
        if (!(await supervise(err).catch(() => false))) {
          stopped = true;
          failPending(err);
          opts.onEscalate?.(name, err);
          break;
        }
      }
    }
  }

  function failPending(err: unknown) {
    for (const env of queue.splice(0)) if (env.kind === 'ask') env.reject(err);
  }

  const ready = (async () => {
    state = await behavior.init();
    void loop();
  })();

  return {
    ref,
    ready,
    queueLength: () => queue.length,
    async stop() {
      if (stopping) return stopping;
      stopped = true;
      failPending(new ActorStoppedError(name));
      wake?.();
      stopping = (async () => {
        await ready.catch(() => {});
        await inFlight.catch(() => {}); // the message being handled finishes before onStop
        if (state !== undefined) await behavior.onStop?.(state);
      })();
      return stopping;
    },
  };
}

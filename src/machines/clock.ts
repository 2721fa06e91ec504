/** Timers: the source xstate actors run on, shared by the owners of lifecycle machines (pool, filters), and how long one can wait. */
import type { ActorOptions, AnyActorLogic } from 'xstate';

/** What a machine's delays are scheduled with (tests pass a SimulatedClock). */
export type Clock = NonNullable<ActorOptions<AnyActorLogic>['clock']>;

/** Real time whose timers do not keep the process alive: a machine's pending delay never delays a shutdown. */
export const UNREF_CLOCK: Clock = {
  setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
  clearTimeout: (id) => clearTimeout(id),
};

/** The longest delay a timer waits: Node runs a longer one after 1 ms instead (its timers count in 32 bits; about 24.8 days). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

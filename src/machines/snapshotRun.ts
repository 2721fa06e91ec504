/**
 * A machine run as a snapshot its owner keeps, rather than as an actor: each event goes through the
 * machine's own transition (xstate's pure step) on one actor scope shared by every run of the machine,
 * and the delayed events its states schedule (`after`) are set and cancelled on a Clock. When one fires,
 * the owner is told and sends it in its own turn, so a run only changes when its owner sends it an event.
 *
 * For machines an owner keeps by the thousand, one per transaction: an actor per machine costs its
 * creation (a system, a mailbox, observers) and a mailbox pass per event, and xstate's `transition`
 * function makes an actor of its own for every call (docs/performance.md, "The transaction lifecycle
 * machine: a snapshot per transaction, one actor scope"). The machine's definition, guards and context
 * updates run exactly as an actor runs them.
 */
import { createActor, type ActorScope, type AnyStateMachine, type EventFromLogic, type InputFrom, type SnapshotFrom } from 'xstate';
import type { Clock } from './clock.ts';

/** One run: the machine's snapshot, and the timers of the delayed events its current states scheduled, by id. */
export interface MachineRun<M extends AnyStateMachine> {
  snapshot: SnapshotFrom<M>;
  readonly delayed: Map<string, unknown>;
}

/** What a step leaves to its caller to run: xstate's executable actions. */
interface ExecutableAction {
  readonly type: string;
  readonly params?: { readonly event?: EventFromLogic<AnyStateMachine>; readonly id?: string; readonly delay?: unknown; readonly sendId?: string };
}

export class SnapshotRunner<M extends AnyStateMachine> {
  readonly #scope: ActorScope<SnapshotFrom<M>, EventFromLogic<M>>;
  /** The executable actions of the step under way. */
  #actions: ExecutableAction[] = [];

  /** `onDelayed`: a delayed event of `run` is due; the owner sends it (`send`) when its turn comes. */
  constructor(
    private readonly machine: M, private readonly clock: Clock,
    private readonly onDelayed: (run: MachineRun<M>, event: EventFromLogic<M>) => void,
  ) {
    // Never started: it only stands for `self` in the actions that name it (none of a run's actions are sent to it).
    const self = createActor(machine);
    this.#scope = {
      self, id: machine.id, sessionId: '', system: self.system,
      logger: () => {}, defer: () => {}, stopChild: () => {}, emit: () => {},
      actionExecutor: (action: ExecutableAction) => void this.#actions.push(action),
    } as unknown as ActorScope<SnapshotFrom<M>, EventFromLogic<M>>;
  }

  start(input: InputFrom<M>): MachineRun<M> {
    const run = { delayed: new Map() } as MachineRun<M>;
    run.snapshot = this.#step(run, () => this.machine.getInitialSnapshot(this.#scope, input) as SnapshotFrom<M>);
    return run;
  }

  send(run: MachineRun<M>, event: EventFromLogic<M>): void {
    run.snapshot = this.#step(run, () => this.machine.transition(run.snapshot, event, this.#scope) as SnapshotFrom<M>);
  }

  /** Cancels the delayed events a run still waits for (its owner lets it go before its end). */
  stop(run: MachineRun<M>): void {
    for (const timer of run.delayed.values()) this.clock.clearTimeout(timer);
    run.delayed.clear();
  }

  #step(run: MachineRun<M>, next: () => SnapshotFrom<M>): SnapshotFrom<M> {
    this.#actions = [];
    const snapshot = next();
    for (const { type, params } of this.#actions) {
      if (type === 'xstate.raise') {
        // A raise without a delay was taken within the step; one with a delay waits on the clock.
        if (typeof params?.delay !== 'number') continue;
        const { event, id } = params as { event: EventFromLogic<M>; id: string };
        this.clock.clearTimeout(run.delayed.get(id));
        run.delayed.set(id, this.clock.setTimeout(() => {
          run.delayed.delete(id);
          this.onDelayed(run, event);
        }, params.delay));
      } else if (type === 'xstate.cancel') {
        this.clock.clearTimeout(run.delayed.get(params!.sendId!));
        run.delayed.delete(params!.sendId!);
      } else {
        throw new Error(`machine ${this.machine.id}: action ${type} cannot run outside an actor`);
      }
    }
    // A run that ended waits for nothing more, as a stopped actor.
    if ((snapshot as { status: string }).status === 'done') this.stop(run);
    return snapshot;
  }
}

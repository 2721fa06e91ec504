/**
 * The event bus: actors publish events, subscribers receive them as tells in their own mailbox,
 * so no callback ever runs inside another actor's state.
 */
import type { ActorRef, Protocol } from './actor.ts';
import { logger } from '../../log.ts';

const log = logger('bus');

export interface EventBus<E extends { type: string }> {
  publish(event: E): void;
  subscribe<P extends Protocol>(ref: ActorRef<P>, map: (event: E) => P['tell'] | undefined): () => void;
}

export function createEventBus<E extends { type: string }>(): EventBus<E> {
  const subscribers = new Set<(event: E) => void>();
  return {
    publish(event) {
      for (const deliver of subscribers) deliver(event);
    },
    subscribe(ref, map) {
      const deliver = (event: E) => {
        const msg = map(event);
        if (!msg) return;
        try {
          ref.tell(msg);
        } catch (err) {
          // A full or stopped mailbox drops the event; the subscriber catches up on its next read.
          log.warn(`event ${event.type} dropped for ${ref.name}: ${(err as Error).message}`);
        }
      };
      subscribers.add(deliver);
      return () => subscribers.delete(deliver);
    },
  };
}

/**
 * Who hears each event: per event type, per subscriber (by name), the tell the event becomes in that
 * subscriber's protocol; a function answering undefined lets that event pass it by. `S` names every
 * subscriber with its protocol.
 */
export type RoutingTable<E extends { type: string }, S extends Record<string, Protocol>> = {
  readonly [T in E['type']]: { readonly [A in keyof S]?: (event: Extract<E, { type: T }>) => S[A]['tell'] | undefined };
};

/** Subscribes `ref` to every event `table` routes to `name`, as the tell the table makes of it. */
export function attach<E extends { type: string }, S extends Record<string, Protocol>, A extends keyof S & string>(
  bus: EventBus<E>, table: RoutingTable<E, S>, name: A, ref: ActorRef<S[A]>,
): () => void {
  return bus.subscribe(ref, (event) => {
    const route = table[event.type as E['type']][name] as ((e: E) => S[A]['tell'] | undefined) | undefined;
    return route?.(event);
  });
}

export * from './actor.ts';
export * from './bus.ts';

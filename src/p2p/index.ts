/** The P2P facade: what the rest of the node may import from src/p2p. */
export { createP2P } from './node.ts';
export * from './protocols.ts';
export type * from './types.ts';

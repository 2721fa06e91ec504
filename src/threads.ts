/**
 * The young generation of the node's worker threads (docs/performance.md "Memory"). NODE_RUNTIME_FLAGS'
 * --max-semi-space-size sizes the main thread's young generation when the process starts; while it is
 * set, V8 gives every later thread the same and ignores a worker's own `resourceLimits`. The flag is read
 * only when a thread's heap is set up, so clearing it before a worker starts leaves the main thread as it
 * is and lets each worker's limits count.
 */
import { setFlagsFromString } from 'node:v8';
import type { ResourceLimits } from 'node:worker_threads';

/**
 * A worker's young generation, MB: semi-spaces of 4 MB where the main thread has 8. An RPC worker under
 * `eth_call` load answered as many calls with it and the node held about 10 MB less at its peak.
 */
export const WORKER_YOUNG_GENERATION_MB = 12;

/** The resource limits a worker thread of the node starts with. */
export function workerResourceLimits(): ResourceLimits {
  setFlagsFromString('--max-semi-space-size=0');
  return { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB };
}

/**
 * The script worker threads run (docs/rpc-workers.md, "Entry"): src/workerMain.ts, or in the build the
 * worker bundle beside the node's, dist/worker.mjs (testnet/launch.ts writes both).
 */
export const WORKER_ENTRY = import.meta.url.endsWith('.ts') ? new URL('./workerMain.ts', import.meta.url) : new URL('./worker.mjs', import.meta.url);

/**
 * Where an RPC worker thread starts (docs/rpc-workers.md, "Entry"). In the build it is a bundle of its
 * own, dist/worker.mjs, holding only what the worker runs: a thread keeps its script's source in memory
 * and parses all of it (0.9 MB against the node bundle's 2.9 MB).
 */
import { serveRpcWorker } from './rpc/workerThread/worker.ts';

await serveRpcWorker();

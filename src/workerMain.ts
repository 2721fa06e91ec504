/**
 * Where every worker thread starts (docs/rpc-workers.md, "Entry"): an RPC worker, or block sync's
 * sender recovery worker (src/actors/blockSync/senders.ts). In the build it is a bundle of its own,
 * dist/worker.mjs, holding only what the workers run: each worker thread keeps its script's source in
 * memory and parses all of it (0.9 MB against the node bundle's 2.9 MB).
 */
import { workerData } from 'node:worker_threads';

if ((workerData as { role?: string }).role === 'senders') (await import('./actors/blockSync/senderWorker.ts')).serveSenderWorker();
else await (await import('./rpc/workerThread/worker.ts')).serveRpcWorker();

/**
 * The node's entry: on the main thread the command line (src/cli.ts, what `npm start` runs); on a
 * worker thread an RPC worker (docs/rpc-workers.md, "Entry") or block sync's sender recovery worker
 * (src/actors/blockSync/senders.ts). Each side loads only its own modules: in the bundle they are
 * initialised on import, so a worker does not set up the node's other parts.
 */
import { isMainThread, workerData } from 'node:worker_threads';

if (isMainThread) await import('./cli.ts');
else if ((workerData as { role?: string }).role === 'senders') (await import('./actors/blockSync/senderWorker.ts')).serveSenderWorker();
else await (await import('./rpc/workerThread/worker.ts')).serveRpcWorker();

/**
 * The node's entry: on the main thread the command line (src/cli.ts, what `npm start` runs); on a
 * worker thread an RPC worker (docs/rpc-workers.md, "Entry"). Each side loads only its own modules:
 * in the bundle they are initialised on import, so a worker does not set up the node's other parts.
 * (Block sync's sender recovery worker has its own entry: src/actors/blockSync/senderWorker.ts.)
 */
import { isMainThread } from 'node:worker_threads';

if (isMainThread) await import('./cli.ts');
else await (await import('./rpc/workerThread/worker.ts')).serveRpcWorker();

/**
 * The node's entry, what `npm start` runs: the command line (src/cli.ts). Worker threads start from
 * their own entries, bundles of their own in the build: RPC workers from src/workerMain.ts
 * (docs/rpc-workers.md, "Entry"), block sync's sender recovery worker from src/actors/blockSync/senderWorker.ts.
 */
import './cli.ts';

/**
 * The node's entry, what `npm start` runs: the command line (src/cli.ts). Worker threads start from
 * src/workerMain.ts, a bundle of their own in the build (docs/rpc-workers.md, "Entry").
 */
import './cli.ts';

/**
 * An RPC worker thread (docs/rpc-workers.md, "Workers"): its own read-only view of the node's
 * database (opened a second time in this process, which LevelDB allows with `multithreading`),
 * answering one request at a time at the head the pool names with it.
 */
import { bytesToHex } from '@ethereumjs/util';
import { parentPort, workerData } from 'node:worker_threads';
import { CallExecutor } from '../../chain/calls.ts';
import { createChainCommon } from '../../chain/execution/blockRunner.ts';
import { NETWORKS } from '../../chain/execution/networks.ts';
import { ChainReader } from '../../chain/reader.ts';
import { ChainStore } from '../../chain/storage/store.ts';
import { BlockReplayer } from '../../tracing/replay.ts';
import { METHOD_NOT_FOUND, RpcError, toRpcError } from '../errors.ts';
import { workerMethods } from './methods.ts';
import type { FromWorker, ToWorker, WorkerAnswer, WorkerInit, WorkerRequest } from './protocol.ts';

export async function serveRpcWorker(): Promise<void> {
  const port = parentPort!;
  const init = workerData as WorkerInit;
  const network = NETWORKS[init.network];
  const reader = new ChainReader(new ChainStore(init.dataDir), createChainCommon(network), network);
  await reader.store.open();
  const methods = workerMethods({ reader, calls: new CallExecutor(reader), replayer: new BlockReplayer(reader), gasCap: init.gasCap });
  let head = '';

  /** Publishes the block `hash` as the head of this worker's view, once per new head. */
  async function follow(hash: Uint8Array): Promise<void> {
    if (bytesToHex(hash) === head) return;
    const [header, totalDifficulty] = await Promise.all([reader.getHeader(hash), reader.totalDifficulty(hash)]);
    if (!header) throw new Error(`the head ${bytesToHex(hash)} is not stored`);
    reader.publishHead({ hash, number: header.number, header, totalDifficulty: totalDifficulty ?? 0n });
    head = bytesToHex(hash);
  }

  const answers: WorkerAnswer[] = [];
  const flush = () => {
    port.postMessage({ answers: answers.splice(0) } satisfies FromWorker);
  };

  async function answer(msg: WorkerRequest): Promise<void> {
    let reply: WorkerAnswer;
    try {
      const def = methods[msg.method];
      if (!def) throw new RpcError(METHOD_NOT_FOUND, `method not found: ${msg.method}`);
      await follow(msg.head);
      reply = { id: msg.id, text: JSON.stringify((await def.call(msg.params)) ?? null) };
    } catch (err) {
      const { code, message, data } = toRpcError(err);
      reply = { id: msg.id, error: data === undefined ? { code, message } : { code, message, data } };
    }
    if (answers.push(reply) === 1) setImmediate(flush);
  }

  port.on('message', async (msg: ToWorker) => {
    if ('requests' in msg) return void msg.requests.forEach(answer);
    await reader.store.close();
    process.exit(0);
  });
  port.postMessage({ ready: true } satisfies FromWorker);
}

/**
 * An RPC worker thread (docs/rpc-workers.md, "Workers"): its own read-only view of the node's
 * database (opened a second time in this process, which LevelDB allows with `multithreading`),
 * answering the requests the pool hands it (several at once, interleaved while each awaits the database)
 * at the head the pool names with each, and streaming large traces in chunks (docs/rpc-workers.md, "Streamed traces").
 */
import { bytesToHex } from '@ethereumjs/util';
import { parentPort, workerData } from 'node:worker_threads';
import { CallExecutor } from '../../chain/calls.ts';
import { decodeFullHeader, type BlockHeader } from '../../chain/codec/header.ts';
import { createChainCommon } from '../../chain/execution/common.ts';
import { NETWORKS } from '../../chain/execution/networks.ts';
import { ChainReader } from '../../chain/reader.ts';
import { ChainStore } from '../../chain/storage/store.ts';
import { StreamedTrace } from '../../tracing/output.ts';
import { BlockReplayer } from '../../tracing/replay.ts';
import { METHOD_NOT_FOUND, RpcError, toRpcError } from '../errors.ts';
import { JsonText } from '../json.ts';
import type { CallContext } from '../method.ts';
import { speedUpInterpreter } from '../../chain/execution/interpreter/index.ts';
import { workerMethods } from '../modules/workerMethods.ts';
import { ReceivedPendingBlocks } from './pendingBlocks.ts';
import type { FromWorker, KnownHead, ToWorker, WorkerAnswer, WorkerInit, WorkerRequest } from '../workers/protocol.ts';

export async function serveRpcWorker(): Promise<void> {
  const port = parentPort!;
  const init = workerData as WorkerInit;
  const network = NETWORKS[init.network];
  const reader = new ChainReader(new ChainStore(init.dataDir, { readsOnThisThread: true }), createChainCommon(network), network);
  // The interpreter changes every call's VM gets (createExecutionVM) are made while the store opens, not at the first call.
  await Promise.all([reader.store.open(), speedUpInterpreter()]);
  const pending = new ReceivedPendingBlocks(reader);
  const calls = new CallExecutor(reader);
  const methods = workerMethods({ reader, calls, replayer: new BlockReplayer(reader), gasCap: init.gasCap, pending });
  let head = '';

  /**
   * Publishes the block `hash` as the head of this worker's view, once per new head; the header when it is new.
   * Told by the main thread (`known`), it reads nothing from the database, and keeps the trie nodes the head's blocks
   * stored and their state steps.
   */
  async function follow(hash: Uint8Array, known?: KnownHead): Promise<BlockHeader | undefined> {
    if (known?.nodes) reader.trieDb.remember(known.nodes);
    if (known?.states) calls.remember(known.states);
    if (bytesToHex(hash) === head) return undefined;
    const [header, totalDifficulty] = known
      ? [decodeFullHeader(known.header), known.totalDifficulty]
      : await Promise.all([reader.getHeader(hash), reader.totalDifficulty(hash)]);
    if (!header) throw new Error(`the head ${bytesToHex(hash)} is not stored`);
    reader.publishHead({ hash, number: header.number, header, totalDifficulty: totalDifficulty ?? 0n });
    head = bytesToHex(hash);
    return header;
  }

  const answers: WorkerAnswer[] = [];
  const flush = () => {
    port.postMessage({ answers: answers.splice(0) } satisfies FromWorker);
  };

  /** Streamed answers in progress, by request id: told when their chunks reach the client. */
  const streams = new Map<number, StreamedTrace>();
  /** Chunks go at once (a trace does not yield to the event loop while it runs), ahead of the answer that ends them. */
  const streamFor = (id: number): CallContext => ({
    traceOutput: () => {
      // Moved, not copied, when the chunk has its buffer to itself (a large Buffer.from does).
      const out = new StreamedTrace((bytes) => port.postMessage({ chunk: { id, bytes } } satisfies FromWorker,
        bytes.byteLength === bytes.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : []));
      streams.set(id, out);
      return out;
    },
  });

  async function answer(msg: WorkerRequest): Promise<void> {
    let reply: WorkerAnswer;
    try {
      const def = methods[msg.method];
      if (!def) throw new RpcError(METHOD_NOT_FOUND, `method not found: ${msg.method}`);
      await follow(msg.head);
      const ctx = msg.stream ? streamFor(msg.id) : {};
      const result = await (msg.pending ? pending.during(msg.pending, () => def.call(msg.params, ctx)) : def.call(msg.params, ctx));
      reply = { id: msg.id, text: result instanceof JsonText ? result.text : JSON.stringify(result ?? null) };
    } catch (err) {
      const { code, message, data } = toRpcError(err);
      reply = { id: msg.id, error: data === undefined ? { code, message } : { code, message, data } };
    } finally {
      streams.delete(msg.id);
    }
    if (answers.push(reply) === 1) setImmediate(flush);
  }

  port.on('message', async (msg: ToWorker) => {
    if ('requests' in msg) return void msg.requests.forEach(answer);
    if ('head' in msg) {
      // Ahead of the requests: one that fails here fails again, and answers, when a request needs it.
      const header = await follow(msg.head, msg.known).catch(() => undefined);
      return header && calls.prepare(header).catch(() => undefined);
    }
    if ('written' in msg) return streams.get(msg.written.id)?.acknowledge(msg.written.bytes);
    await reader.store.close();
    process.exit(0);
  });
  port.postMessage({ ready: true } satisfies FromWorker);
}

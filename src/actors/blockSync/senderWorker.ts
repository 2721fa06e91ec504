/**
 * The sender recovery worker thread (senders.ts): decodes each transaction and recovers its sender's
 * public key. The worker's own entry, bundled apart from the node (dist/senderWorker.mjs):
 * it loads only transaction decoding and secp256k1, so it serves a fraction of a second after the
 * download starts it (docs/network.md "Block sync").
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { impersonatedSender } from '../../chain/codec/impersonation.ts';
import { txFromBytes } from '../../chain/codec/txEncoding.ts';
import { createChainCommon } from '../../chain/execution/common.ts';
import type { FromSenderWorker, SenderWorkerInit, ToSenderWorker } from './senders.ts';

if (parentPort) serveSenderWorker(parentPort);

function serveSenderWorker(port: MessagePort): void {
  const common = createChainCommon((workerData as SenderWorkerInit).network);
  port.on('message', (msg: ToSenderWorker) => {
    const n = msg.ends.length;
    const ok = new Uint8Array(n);
    const keys = new Uint8Array(n * 64);
    let start = 0;
    for (let i = 0; i < n; i++) {
      const raw = msg.txs.subarray(start, msg.ends[i]);
      start = msg.ends[i]!;
      try {
        const tx = txFromBytes(raw, common);
        // An impersonated transaction names its sender without a key (docs/rpc-compatibility.md
        // "Account impersonation"): the main thread's decoding gives it its sender.
        if (impersonatedSender(tx)) continue;
        keys.set(tx.getSenderPublicKey(), i * 64);
        ok[i] = 1;
      } catch { /* left to execution, which refuses the block */ }
    }
    port.postMessage({ id: msg.id, ok, keys } satisfies FromSenderWorker, [ok.buffer, keys.buffer]);
  });
  port.postMessage({ ready: true } satisfies FromSenderWorker);
}

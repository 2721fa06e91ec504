/**
 * Loaded into the node by `npm run bench:memory` (`node --import`), and so into each of its worker
 * threads (they inherit the flags): every 200 ms the main thread appends one JSON line to
 * $MEMORY_PROBE_OUT with /proc/self/status's VmRSS, VmHWM, RssAnon and RssFile and, per thread, the
 * V8 heap's resident size by space, external memory and the thread's CPU time. Workers post theirs
 * to the main thread on a BroadcastChannel. Not part of the node: only this benchmark loads it.
 */
import { readFileSync, appendFileSync } from 'node:fs';
import v8 from 'node:v8';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

const OUT = process.env.MEMORY_PROBE_OUT;
const kb = (bytes) => Math.round(bytes / 1024);

function heap() {
  const h = v8.getHeapStatistics();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) spaces[s.space_name.replace(/_space$/, '')] = kb(s.physical_space_size);
  const cpu = process.threadCpuUsage();
  return { tid: threadId, cpuMs: Math.round((cpu.user + cpu.system) / 1000), v8: kb(h.total_physical_size), ext: kb(h.external_memory), spaces };
}

if (OUT) {
  const channel = new BroadcastChannel('mmnode-memory-probe');
  channel.unref();
  if (isMainThread) {
    const workers = new Map();
    channel.onmessage = (e) => workers.set(e.data.tid, { ...e.data, at: Date.now() });
    const field = (status, name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    setInterval(() => {
      const status = readFileSync('/proc/self/status', 'utf8');
      const now = Date.now();
      for (const [tid, w] of workers) if (now - w.at > 1_000) workers.delete(tid); // retired
      const sample = {
        t: now, rss: field(status, 'VmRSS'), hwm: field(status, 'VmHWM'), anon: field(status, 'RssAnon'), file: field(status, 'RssFile'),
        main: heap(), workers: [...workers.values()].map(({ at, ...w }) => w),
      };
      appendFileSync(OUT, `${JSON.stringify(sample)}\n`);
    }, 200).unref();
  } else {
    setInterval(() => channel.postMessage(heap()), 200).unref();
  }
}

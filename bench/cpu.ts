/**
 * CPU time from Linux's /proc, for the benchmarks that say where a workload's CPU went: a process's
 * (or one thread's) user and system time, a process's time by thread, and the machine's idle share.
 * Clock ticks are 10 ms, so a window should last seconds.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** User + system milliseconds of fields 14 and 15 of a stat line (after the command's closing parenthesis). */
const statMs = (stat: string) => {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** CPU milliseconds a process (or with `thread`, one of its threads) has used. */
export const cpuMs = (pid: number, thread?: number): number =>
  statMs(readFileSync(thread === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8'));

/** CPU milliseconds of each of a process's threads, summed by thread name; the main thread is `main`. */
function cpuMsByThread(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const name = tid === String(pid) ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    byName.set(name, (byName.get(name) ?? 0) + statMs(stat));
  }
  return byName;
}

/** The machine's idle and total clock ticks since boot (the first line of /proc/stat; idle includes waiting for I/O). */
function machineTicks(): { idle: number; total: number } {
  const ticks = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  return { idle: ticks[3]! + ticks[4]!, total: ticks.reduce((a, b) => a + b, 0) };
}

/** Where the CPU of a window went, per unit of work (a transaction). */
export interface CpuShare {
  /** Milliseconds of the peer process, all threads. */
  readonly peerMs: number;
  /** Milliseconds of each of its threads (by name, `main` first), largest first. */
  readonly byThread: readonly (readonly [string, number])[];
  /** Milliseconds of this process: the load generator. */
  readonly generatorMs: number;
  /** Share of the machine's CPU time nobody used, 0..1. */
  readonly idleShare: number;
}

/** Starts a window over a peer process; `end(units)` gives the CPU per unit since the start. */
export function cpuWindow(pid: number): { end(units: number): CpuShare } {
  const threads = cpuMsByThread(pid);
  const generator = process.cpuUsage();
  const machine = machineTicks();
  return {
    end(units) {
      const byThread = [...cpuMsByThread(pid)]
        .map(([name, ms]): [string, number] => [name, (ms - (threads.get(name) ?? 0)) / units])
        .filter(([, ms]) => ms > 0)
        .sort((a, b) => (a[0] === 'main' ? -1 : b[0] === 'main' ? 1 : b[1] - a[1]));
      const used = process.cpuUsage(generator);
      const now = machineTicks();
      return {
        peerMs: byThread.reduce((sum, [, ms]) => sum + ms, 0),
        byThread,
        generatorMs: (used.user + used.system) / 1000 / units,
        idleShare: (now.idle - machine.idle) / Math.max(1, now.total - machine.total),
      };
    },
  };
}

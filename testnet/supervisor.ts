/**
 * The node processes of the process testnet: how each is started (its addresses, role and bootnodes
 * by topology), stopped with SIGTERM or killed with SIGKILL, and started again on the same data dir and
 * ports. A node that exits by itself is marked down with its exit code.
 */
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startNodeProcess, type NodeProcess } from './launch.ts';
import { announceHost, listenHost } from './hosts.ts';

/** mesh: every node gets all earlier nodes as bootnodes; bootnode: only node 0 (discovery finds the rest). */
export type Topology = 'mesh' | 'bootnode';
export type Role = 'miner' | 'follower';
export type NodeState = 'starting' | 'up' | 'stopping' | 'down';

export interface NodePlan {
  readonly index: number;
  readonly role: Role;
  readonly dataDir: string;
  readonly p2pPort: number;
  /** 0 on the first start picks a free port; the node keeps the one it got for its restarts. */
  rpcPort: number;
  /** The same for --metrics-port (metrics and status page; the overview page reads it). */
  metricsPort: number;
  /** Miners only: the interval of the built-in mining client. */
  readonly blockTimeMs: number;
}

/** Refused operations (start a node that is up, stop one that is down): the caller's mistake. */
export class SupervisorError extends Error {}

const STOP_GRACE_MS = 15_000;

interface Slot {
  readonly plan: NodePlan;
  state: NodeState;
  /** While starting: settles once the process is ready or failed. */
  starting?: Promise<void>;
  process?: NodeProcess;
  peerId?: string;
  rpcUrl?: string;
  metricsUrl?: string;
  /** How the last run ended, e.g. "SIGKILL" or "exit 1". */
  lastExit?: string;
  /** Whether stop() asked the running process to end. */
  stopRequested?: boolean;
}

/** Emits `exit` (index, how, whether stop() asked for it) whenever a node process ends. */
export class Supervisor extends EventEmitter<{ exit: [index: number, how: string, requested: boolean] }> {
  readonly #slots: Slot[];

  constructor(plans: readonly NodePlan[], readonly topology: Topology) {
    super();
    this.#slots = plans.map((plan) => ({ plan, state: 'down' }));
  }

  get size(): number {
    return this.#slots.length;
  }

  describe(i: number) {
    const s = this.#slot(i);
    return { index: i, role: s.plan.role, state: s.state, rpcUrl: s.rpcUrl, metricsUrl: s.metricsUrl, peerId: s.peerId, pid: s.process?.child.pid, lastExit: s.lastExit };
  }

  plan(i: number): NodePlan {
    return this.#slot(i).plan;
  }

  /** The multiaddr other nodes dial node i at (its relay), once its peer id is known. */
  multiaddr(i: number): string | undefined {
    const s = this.#slot(i);
    return s.peerId && `/ip4/${announceHost(i)}/tcp/${s.plan.p2pPort}/p2p/${s.peerId}`;
  }

  async start(i: number): Promise<void> {
    const s = this.#slot(i);
    if (s.state !== 'down') throw new SupervisorError(`node ${i} is ${s.state}`);
    s.state = 'starting';
    s.starting = this.#launch(s).finally(() => { s.starting = undefined; });
    await s.starting;
  }

  async #launch(s: Slot): Promise<void> {
    const { plan } = s;
    const i = plan.index;
    mkdirSync(plan.dataDir, { recursive: true });
    const bootnodes = (this.topology === 'mesh' ? this.#slots.slice(0, i) : this.#slots.slice(0, Math.min(i, 1)))
      .map((b) => this.multiaddr(b.plan.index)).filter((m) => m !== undefined);
    const args = [
      '--quiet', '--data-dir', plan.dataDir, '--rpc-port', String(plan.rpcPort), '--metrics-port', String(plan.metricsPort),
      // Listens (and dials from) its own host; advertises its relay's.
      '--p2p-host', listenHost(i), '--p2p-port', String(plan.p2pPort), '--p2p-announce', `/ip4/${announceHost(i)}/tcp/${plan.p2pPort}`,
      ...(bootnodes.length ? ['--bootnodes', bootnodes.join(',')] : []),
      ...(plan.role === 'miner' ? ['--block-time', String(plan.blockTimeMs), '--coinbase', minerCoinbase(i)] : ['--no-mining']),
    ];
    try {
      s.process = await startNodeProcess(args);
    } catch (err) {
      s.state = 'down';
      s.lastExit = 'failed to start';
      throw new Error(`node ${i}: ${(err as Error).message}`);
    }
    const { ready, exited } = s.process;
    s.peerId = ready.peerId;
    s.rpcUrl = ready.rpcUrl;
    plan.rpcPort = Number(new URL(ready.rpcUrl).port);
    s.metricsUrl = ready.metricsUrl;
    plan.metricsPort = Number(new URL(ready.metricsUrl!).port);
    s.state = 'up';
    s.stopRequested = false;
    void exited.then((how) => {
      s.state = 'down';
      s.process = undefined;
      s.lastExit = typeof how === 'string' ? how : `exit ${how}`;
      this.emit('exit', i, s.lastExit, s.stopRequested ?? false);
    });
  }

  /** SIGTERM (a clean stop, SIGKILL after 15 s) or SIGKILL; resolves once the process is gone. */
  async stop(i: number, signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const s = this.#slot(i);
    const p = s.process;
    if (!p || s.state === 'starting') throw new SupervisorError(`node ${i} is ${s.state}`);
    s.state = 'stopping';
    s.stopRequested = true;
    p.child.kill(signal);
    const forced = signal === 'SIGTERM' ? setTimeout(() => p.child.kill('SIGKILL'), STOP_GRACE_MS) : undefined;
    await p.exited;
    clearTimeout(forced);
  }

  /** Stops every node at once (SIGTERM), waiting for those still starting. */
  async stopAll(): Promise<void> {
    await Promise.allSettled(this.#slots.map((s) => s.starting));
    await Promise.all(this.#slots.filter((s) => s.process).map((s) => this.stop(s.plan.index)));
  }

  #slot(i: number): Slot {
    const s = this.#slots[i];
    if (!Number.isInteger(i) || !s) throw new SupervisorError(`no node ${i}: nodes are 0 to ${this.#slots.length - 1}`);
    return s;
  }
}

/** A distinct coinbase per miner (0xaa…a1, 0xaa…a2, …), so blocks show who mined them. */
export const minerCoinbase = (i: number): string => `0x${(i + 1).toString(16).padStart(40, 'a')}`;

export const dataDirOf = (dir: string, i: number): string => join(dir, `node-${i}`);

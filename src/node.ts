/**
 * Composition root: spawns every actor in dependency order (chain → txpool → miner → block sync →
 * peer manager → filter supervisor → RPC listener → monitor), wires the events of the bus to them
 * from one routing table (`routes`), and stops them in reverse. Used by main.ts and by tests
 * (in-process nodes). docs/architecture.md draws the same picture.
 */
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { join } from 'node:path';
import { LIGHT_SCRYPT, STANDARD_SCRYPT } from './accounts/keystore.ts';
import { Wallet } from './accounts/wallet.ts';
import { spawnChain, type ChainProtocol } from './actors/chain/index.ts';
import { DEFAULT_FILTER_OPTIONS, spawnFilterSupervisor, type FilterSupervisorProtocol } from './actors/filterSupervisor/index.ts';
import { toLiveEvent } from './actors/liveEvents.ts';
import type { NodeEvent } from './actors/events.ts';
import { attach, createEventBus, type Actor, type ActorRef, type EventBus, type Protocol, type RoutingTable } from './actors/kernel/index.ts';
import { spawnBlockSync, type BlockSyncProtocol } from './actors/blockSync/index.ts';
import { DEFAULT_PEER_MANAGER_OPTIONS, ourStatus, spawnPeerManager, type PeerManagerProtocol } from './actors/peerManager/index.ts';
import { spawnMiner, type MinerProtocol } from './actors/miner/index.ts';
import { spawnRpcListener, type RpcListenerProtocol } from './rpc/listener/index.ts';
import { DEFAULT_TXPOOL_OPTIONS, spawnTxPool, TxRefusedError, type TxPoolProtocol } from './actors/txpool/index.ts';
import { encodeBlock } from './chain/codec/block.ts';
import { txBytes } from './chain/codec/txEncoding.ts';
import { impersonatedSender } from './chain/codec/impersonation.ts';
import {
  createP2P, gossipTopics, MAX_GOSSIP_BYTES, offerServices, parsePeerAddress, requestBlocksByRange, REQUEST_TIMEOUT_MS, takePooledTxs,
  topicScoreParams, type P2P, type PeerEvent, type PeerIdStr, type Topics,
} from './p2p/index.ts';
import { createChainCommon } from './chain/execution/common.ts';
import { LiveLogSource } from './chain/logs/liveLogs.ts';
import { NETWORKS } from './chain/execution/networks.ts';
import { ChainReader, type ChainView } from './chain/reader.ts';
import { ChainStore } from './chain/storage/store.ts';
import type { NodeConfig } from './config/index.ts';
import { HostedGate } from './rpc/hosted.ts';
import { withHostedRequirements } from './rpc/hostedParams.ts';
import { devControlsOff } from './rpc/modules/evm.ts';
import { buildMethods } from './rpc/modules/index.ts';
import { InclusionWaits, inclusionEvent } from './rpc/inclusion.ts';
import { PendingBlockSource } from './rpc/pending.ts';
import { defaultSwitches } from './rpc/switches.ts';
import { DEFAULT_GAS_CAP, DEFAULT_RPC_WORKER_OPTIONS, QUEUED_PER_WORKER } from './rpc/workers/options.ts';
import { RpcWorkerPool, workerHeadEvent } from './rpc/workers/pool.ts';
import { MainThreadCalls } from './rpc/mainThreadCalls.ts';
import { spawnMonitor, type MonitorProtocol } from './monitor/index.ts';
import { NodeMetrics } from './monitor/metrics.ts';
import { logger, logsDebug } from './log.ts';
import type { CallObserver } from './rpc/dispatch.ts';
import { portError, prepareDataDir, storeError } from './startup.ts';

const log = logger('node');
const rpcLog = logger('rpc');

export const CLIENT_VERSION = `mmnode/v0.1.0/${process.platform}-${process.arch}/node-${process.version}`;

/** The reference regtest miner key (docs/chain.md "Networks"): the coinbase account is held too. */
const REGTEST_MINER_KEY = '0xbcf6db3716f6a1100ac34bc8e102be662e04b1f7f297094a35e9859ab20c4130';

/** The actors that hear events on the bus, by name, with their protocols. */
type Subscribers = {
  txpool: TxPoolProtocol;
  miner: MinerProtocol;
  peerManager: PeerManagerProtocol;
  filterSupervisor: FilterSupervisorProtocol;
  rpcListener: RpcListenerProtocol;
  monitor: MonitorProtocol;
};

const same = <E>(event: E): E => event;

/**
 * The node's wiring diagram: every event on the bus, and who hears it as what. The chain publishes
 * chain.*, the pool pool.*; blocks mined here and every transaction the pool admits (but an impersonated
 * one) are gossiped on `topics` (a peer's block was announced by whoever sent it).
 */
function routes(topics: Topics): RoutingTable<NodeEvent, Subscribers> {
  return {
    'chain.headChanged': { txpool: same, miner: same, filterSupervisor: toLiveEvent, rpcListener: toLiveEvent },
    'chain.blockImported': {
      // The miner keeps blocks off the best chain as uncle candidates, and nothing else: a hardhat_mine run
      // announces its thousands of blocks while the miner is still busy mining them.
      miner: (e) => (e.best ? undefined : e),
      monitor: same,
      peerManager: (e) => (e.origin === 'local' ? { type: 'gossip.publish', topic: topics.blocks, encode: () => encodeBlock(e.block) } : undefined),
    },
    'pool.txAdded': {
      miner: same,
      filterSupervisor: toLiveEvent,
      rpcListener: toLiveEvent,
      // Impersonated transactions stay with the node that made them (peers refuse them outside blocks).
      peerManager: (e) => (impersonatedSender(e.tx) ? undefined : { type: 'gossip.publish', topic: topics.txs, encode: () => txBytes(e.tx) }),
    },
    'pool.txRemoved': { miner: same },
    // No actor: the RPC's inclusion waits hear it (src/rpc/inclusion.ts, subscribed below the table's actors).
    'pool.txLeft': {},
  };
}

export interface RunningNode {
  readonly rpcUrl: string;
  readonly reader: ChainReader;
  /** This node's peer id and p2p listen addresses (with /p2p/<id>), to give other nodes as bootnodes. */
  readonly p2p: { readonly peerId: string; readonly multiaddrs: readonly string[] };
  /** The node's event bus, for observers such as the benchmarks (events arrive as tells to an actor). */
  readonly events: EventBus<NodeEvent>;
  /** The peer manager: the testnet harness bans and unbans peers through it to partition nodes. */
  readonly peers: ActorRef<PeerManagerProtocol>;
  /** Every JSON-RPC method name the node answers for (served or refused with a reason): the fuzz suite calls each. */
  readonly methodNames: readonly string[];
  /** The RPC worker threads (src/rpc/workers/pool.ts): tests and benchmarks read their state. */
  readonly workers: RpcWorkerPool;
  /** Calls run on the main thread (src/rpc/mainThreadCalls.ts); absent when off (--rpc-main-thread-calls, off under --hosted by default). */
  readonly mainThreadCalls?: MainThreadCalls;
  /** The --metrics-port server's base URL (metrics at /metrics, the status page at /); undefined when off. */
  readonly metricsUrl: string | undefined;
  /** Resolves when the node stops, by request or because an actor escalated a failure. */
  readonly stopped: Promise<void>;
  stop(): Promise<void>;
}

export async function startNode(config: NodeConfig): Promise<RunningNode> {
  const network = NETWORKS[config.network];
  prepareDataDir(config.dataDir);
  const common = createChainCommon(network);
  const reader = new ChainReader(new ChainStore(config.dataDir), common, network);
  const bus = createEventBus<NodeEvent>();
  const started: Actor<Protocol>[] = [];
  let stopping: Promise<void> | undefined;
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => { resolveStopped = r; });

  let workers: RpcWorkerPool | undefined;
  const stop = () => {
    stopping ??= (async () => {
      await workers?.close();
      for (const actor of started.reverse()) await actor.stop().catch((err) => log.error({ err }, `stopping ${actor.ref.name} failed`));
      resolveStopped();
    })();
    return stopping;
  };
  const onEscalate = (name: string, err: unknown) => {
    log.fatal({ err }, `actor ${name} failed and cannot recover; stopping the node`);
    void stop();
  };
  const start = async <P extends Protocol>(actor: Actor<P>): Promise<Actor<P>> => {
    started.push(actor as unknown as Actor<Protocol>);
    await actor.ready;
    return actor;
  };

  // Created once the actors it reads from run; the chain and the RPC listener feed it from the start.
  let metrics: NodeMetrics | undefined;
  const rpcDebug = logsDebug();
  const observe: CallObserver | undefined = config.metrics || rpcDebug ? (method, outcome, seconds) => {
    metrics?.rpcCall(method, outcome, seconds);
    // By method only: parameters may hold keys and passphrases.
    if (rpcDebug) rpcLog.debug({ method, outcome, ms: Math.round(seconds * 1e4) / 10 }, `${method} ${outcome}`);
  } : undefined;

  try {
    const chain = await start(spawnChain({ reader, bus, observeImport: (seconds, blocks) => metrics?.blocksImported(seconds, blocks) }, onEscalate))
      .catch((err) => { throw storeError(err, config.dataDir); });
    const genesisHash = (await reader.canonicalHash(0n))!;
    const topics = gossipTopics(network.name, genesisHash);
    const wiring = routes(topics);
    // Subscribed before it starts, so an actor misses no event published while it initialises.
    const hearing = <A extends keyof Subscribers>(name: A, actor: Actor<Subscribers[A]>) => {
      attach(bus, wiring, name, actor.ref);
      return actor;
    };

    const txpool = await start(hearing('txpool', spawnTxPool(reader, bus, { ...DEFAULT_TXPOOL_OPTIONS, ...config.txpool, minGasPriceTarget: config.minGasPrice }, join(config.dataDir, 'txpool.journal'))));
    const miner = await start(hearing('miner', spawnMiner({
      mode: config.mining, blockTimeMs: config.blockTimeMs, coinbase: config.coinbase, minGasPriceTarget: config.minGasPrice,
    }, { reader, chain: chain.ref, txpool: txpool.ref })));

    const net = await startPeers(config, reader, { chain, txpool, genesisHash, topics, start, hearing })
      .catch((err) => { throw portError(err, 'P2P', '--p2p-port', config.p2p.host, config.p2p.port); });
    const p2pInfo = await net.peerManager.ref.ask('p2p.info', {});

    // The wallet (reference `wallet.enabled`) is on regtest only, with the development accounts and the reference
    // miner account always unlocked; a hosted endpoint holds no keys (README "Hosted mode"), not even those public ones.
    const wallet = network.name === 'regtest' && !config.hosted ? new Wallet({
      dir: join(config.dataDir, 'keystore'), scrypt: config.lightKdf ? LIGHT_SCRYPT : STANDARD_SCRYPT,
      devKeys: [...network.devAccounts.map((a) => a.privateKey), hexToBytes(REGTEST_MINER_KEY)],
    }) : undefined;
    const liveLogs = new LiveLogSource(reader);
    const filters = await start(hearing('filterSupervisor', spawnFilterSupervisor({
      ...DEFAULT_FILTER_OPTIONS, idleTimeoutMs: config.filterTimeoutMs ?? DEFAULT_FILTER_OPTIONS.idleTimeoutMs,
    }, { logs: liveLogs })));
    const switches = config.rpcModules ?? defaultSwitches(config.network, config.hosted !== undefined);
    const gasCap = config.rpcGasCap ?? DEFAULT_GAS_CAP;
    const workerCount = config.rpcWorkers ?? DEFAULT_RPC_WORKER_OPTIONS.size;
    workers = new RpcWorkerPool(
      {
        size: workerCount, timeoutMs: config.rpcEvmTimeoutMs ?? DEFAULT_RPC_WORKER_OPTIONS.timeoutMs, maxQueued: workerCount * QUEUED_PER_WORKER,
        warm: config.rpcWarmWorkers,
      },
      { dataDir: config.dataDir, network: config.network, gasCap }, () => reader.head().hash,
    );
    const inclusions = new InclusionWaits();
    const clientVersion = config.clientVersion ?? CLIENT_VERSION;
    bus.subscribe(inclusions.ref, inclusionEvent);
    bus.subscribe(workers.headRef, workerHeadEvent);
    // A hosted endpoint keeps every call on the workers unless told otherwise: its clients' calls do not share the main thread.
    const mainThreadCalls = (config.rpcMainThreadCalls ?? !config.hosted) ? new MainThreadCalls(reader, gasCap) : undefined;
    if (mainThreadCalls) bus.subscribe(mainThreadCalls.headRef, workerHeadEvent);
    const methods = buildMethods({
      reader, chain: chain.ref, txpool: txpool.ref, filters: filters.ref, miner: miner.ref,
      gasCap, workers, mainThreadCalls, wallet, pending: new PendingBlockSource(reader, miner.ref, config.minGasPrice), inclusions,
      clientVersion, peers: net.peerManager.ref, sync: net.blockSync.ref,
      revertCode: config.rpcRevertCode, devControlsOff: devControlsOff(network.name, config.hosted !== undefined),
    }, switches);
    const gate = config.hosted && new HostedGate(config.hosted);
    const served = gate ? withHostedRequirements(methods) : methods;
    const listener = await start(hearing('rpcListener', spawnRpcListener({
      methods: served, switches, host: config.rpcHost, port: config.rpcPort, gate: gate || undefined, reader, logs: liveLogs, observe,
      settled: () => inclusions.settled(),
    }))).catch((err) => { throw portError(err, 'RPC', '--rpc-port', config.rpcHost, config.rpcPort); });
    const address = await listener.ref.ask('listener.address', {});
    let metricsUrl: string | undefined;
    if (config.metrics) {
      const { host, port } = config.metrics;
      const sources = {
        reader, peers: net.peerManager.ref, txpool: txpool.ref, miner: miner.ref, sync: net.blockSync.ref, workers, mainThreadCalls, clientVersion, peerId: p2pInfo.peerId,
      };
      metrics = new NodeMetrics(sources);
      const monitor = await start(hearing('monitor', spawnMonitor({ metrics, sources, host, port })))
        .catch((err) => { throw portError(err, 'metrics', '--metrics-port', host, port); });
      const at = await monitor.ref.ask('monitor.address', {});
      metricsUrl = `http://${at.address}:${at.port}`;
    }
    // Once the node serves: a worker starting competes for the CPU with the start-up.
    workers.warmUp();
    void mainThreadCalls?.warmUp();
    return {
      rpcUrl: `http://${address.address}:${address.port}`, metricsUrl, reader, workers, mainThreadCalls, stopped, stop, peers: net.peerManager.ref, events: bus, methodNames: Object.keys(methods),
      p2p: { peerId: p2pInfo.peerId, multiaddrs: p2pInfo.multiaddrs },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * The network side: block sync, and the peer manager owning the libp2p host, which serves the chain
 * to peers and hands what they gossip to the chain and the pool (docs/network.md).
 */
async function startPeers(
  config: NodeConfig, reader: ChainView,
  { chain, txpool, genesisHash, topics, start, hearing }: {
    chain: Actor<ChainProtocol>; txpool: Actor<TxPoolProtocol>; genesisHash: Uint8Array; topics: Topics;
    start: <P extends Protocol>(actor: Actor<P>) => Promise<Actor<P>>;
    hearing: (name: 'peerManager', actor: Actor<PeerManagerProtocol>) => Actor<PeerManagerProtocol>;
  },
): Promise<{ peerManager: Actor<PeerManagerProtocol>; blockSync: Actor<BlockSyncProtocol> }> {
  let p2p: P2P | undefined;
  let peerManager: Actor<PeerManagerProtocol> | undefined;
  const tellPeers = (msg: PeerManagerProtocol['tell']) => { try { peerManager?.ref.tell(msg); } catch { /* stopping */ } };
  const report = (peer: PeerIdStr, event: PeerEvent) => tellPeers({ type: 'peer.event', peer, event });
  const running = () => p2p ?? Promise.reject(new Error('p2p is not running'));
  let validateTx: ((from: PeerIdStr, raw: Uint8Array) => Promise<unknown>) | undefined;

  const blockSync = await start(spawnBlockSync({
    reader, chain: chain.ref, report,
    fetchBlocks: async (peer, from, count) => requestBlocksByRange(await running(), peer, from, count),
  }));
  const tellSync = (msg: BlockSyncProtocol['tell']) => { try { blockSync.ref.tell(msg); } catch { /* stopping */ } };

  const { p2p: opts } = config;
  peerManager = await start(hearing('peerManager', spawnPeerManager({
    ...DEFAULT_PEER_MANAGER_OPTIONS, punishmentMs: opts.punishmentMs, minPeers: Math.min(opts.minPeers, opts.maxPeers),
    bootnodes: opts.bootnodes.map((b) => ({ peerId: parsePeerAddress(b).peerId, address: b.replace(/\/p2p\/\w+$/, '') })),
    dataDir: config.dataDir,
  }, {
    reader,
    async startP2P(isBanned) {
      const host = await createP2P({
        dataDir: config.dataDir, host: opts.host, port: opts.port, announce: opts.announce, maxPeers: opts.maxPeers,
        maxMessageBytes: MAX_GOSSIP_BYTES, requestTimeoutMs: REQUEST_TIMEOUT_MS, isBanned,
        dhtProtocol: `/mmnode/${reader.network.name}/${bytesToHex(genesisHash).slice(2, 18)}/kad/1.0.0`, topicScores: topicScoreParams(topics),
      });
      ({ validateTx } = await offerServices(host, {
        reader, topics, report,
        ourStatus: () => ourStatus(reader, genesisHash),
        onStatus: (peer, status) => tellPeers({ type: 'peer.handshaked', peer, status }),
        pooledTxs: async () => {
          const { pending, queued } = await txpool.ref.ask('pool.list', {});
          return [...pending, ...queued].filter((p) => !impersonatedSender(p.tx)).map((p) => txBytes(p.tx));
        },
        importBlock: (block) => chain.ref.ask('block.import', { block, origin: 'peer' }, 60_000),
        onOrphan: (peer, number) => tellSync({ type: 'block.orphan', peer, number }),
        submitTx: (tx) => txpool.ref.ask('tx.submit', { tx }).then(
          () => ({ accepted: true }) as const,
          (err) => ({ accepted: false, peerFault: err instanceof TxRefusedError && err.peerFault }) as const,
        ),
      }));
      p2p = host;
      return host;
    },
    onPeerStatus: (peer, status) => tellSync({ type: 'peer.status', peer, status }),
    onPeerJoined: (peer) => { if (p2p && validateTx) void takePooledTxs(p2p, peer, validateTx, report); },
  })));
  return { peerManager, blockSync };
}

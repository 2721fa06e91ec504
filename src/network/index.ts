/**
 * Wires the p2p layer to the actors: spawns the peer manager (which owns the libp2p host) and block
 * sync, serves the request/response protocols from the chain, validates gossip by handing blocks
 * to the chain and transactions to the pool, and announces what this node mines and receives.
 */
import { decodeBlock, encodeBlock } from '../chain/block.ts';
import { decodeTx, TxDecodeError } from '../chain/execution.ts';
import type { ChainReader } from '../chain/reader.ts';
import { txBytes } from '../chain/txEncoding.ts';
import type { ChainProtocol } from '../actors/chain/index.ts';
import type { NodeEvent } from '../actors/events.ts';
import type { Actor, ActorRef, EventBus, Protocol } from '../actors/kernel/index.ts';
import { spawnBlockSync, type BlockSyncProtocol } from '../actors/blockSync/index.ts';
import { ourStatus, spawnPeerManager, type PeerEvent, type PeerManagerProtocol } from '../actors/peerManager/index.ts';
import type { TxPoolProtocol } from '../actors/txpool/index.ts';
import {
  BLOCKS_BY_HASH_PROTOCOL, BLOCKS_BY_RANGE_PROTOCOL, createP2P, decodeHashRequest, decodeRangeRequest, decodeStatus, decodeTxList,
  encodeBlockList, encodeStatus, encodeTxList, gossipTopics, MAX_GOSSIP_BYTES, MAX_POOLED_TXS, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES,
  POOLED_TXS_PROTOCOL, STATUS_PROTOCOL, type GossipVerdict, type P2P, type P2POptions, type PeerIdStr,
} from '../p2p/index.ts';

export interface NetworkOptions extends Pick<P2POptions, 'dataDir' | 'host' | 'port' | 'bootnodes' | 'maxPeers'> {
  /** First ban length after an invalid block or message. */
  readonly punishmentMs: number;
}

export interface Network {
  readonly peerManager: Actor<PeerManagerProtocol>;
  readonly blockSync: Actor<BlockSyncProtocol>;
}

export async function startNetwork(
  opts: NetworkOptions,
  deps: { reader: ChainReader; chain: ActorRef<ChainProtocol>; txpool: ActorRef<TxPoolProtocol>; bus: EventBus<NodeEvent>; start: <P extends Protocol>(actor: Actor<P>) => Promise<Actor<P>> },
): Promise<Network> {
  const { reader, chain, txpool, bus } = deps;
  const genesisHash = (await reader.canonicalHash(0n))!;
  const topics = gossipTopics(reader.network.name, genesisHash);
  let p2p: P2P | undefined;
  let peerManager: Actor<PeerManagerProtocol> | undefined;
  const report = (peer: PeerIdStr, event: PeerEvent) => { try { peerManager?.ref.tell({ type: 'peer.event', peer, event }); } catch { /* stopping */ } };

  const blockSync = await deps.start(spawnBlockSync({
    reader, chain, report,
    request: (peer, protocol, req, max) => (p2p ? p2p.request(peer, protocol, req, max) : Promise.reject(new Error('p2p is not running'))),
  }));
  const tellSync = (msg: BlockSyncProtocol['tell']) => { try { blockSync.ref.tell(msg); } catch { /* stopping */ } };

  async function validateBlock(from: PeerIdStr, data: Uint8Array): Promise<GossipVerdict> {
    let block;
    try {
      block = decodeBlock(data, reader.common);
    } catch {
      report(from, 'invalidMessages');
      return 'reject';
    }
    if (await reader.getHeader(block.hash)) return 'ignore';
    const outcome = await chain.ask('block.import', { block, origin: 'peer' }, 60_000);
    switch (outcome.result) {
      case 'IMPORTED_BEST':
      case 'IMPORTED_NOT_BEST':
        report(from, 'validBlocks');
        return 'accept';
      case 'NO_PARENT':
        tellSync({ type: 'block.orphan', peer: from, number: block.header.number });
        return 'ignore';
      case 'INVALID_BLOCK':
        console.error(`[p2p] invalid block #${block.header.number} from ${from.slice(-8)}: ${outcome.reason}`);
        report(from, 'invalidBlocks');
        return 'reject';
      default:
        return 'ignore';
    }
  }

  async function validateTx(from: PeerIdStr, data: Uint8Array): Promise<GossipVerdict> {
    let tx;
    try {
      tx = decodeTx(data, reader.common);
    } catch (err) {
      report(from, err instanceof TxDecodeError && err.kind === 'rejected' ? 'invalidTransactions' : 'invalidMessages');
      return 'reject';
    }
    try {
      await txpool.ask('tx.submit', { tx });
      report(from, 'validTransactions');
      return 'accept';
    } catch {
      return 'ignore'; // known, or not valid on our state (nonce, balance): not the sender's fault
    }
  }

  /**
   * Takes a new peer's pool through the gossip path (same checks, same penalties): a transaction
   * sent to a node while it had no peers was gossiped to nobody, and reaches the network this way.
   */
  async function takePooledTxs(peer: PeerIdStr): Promise<void> {
    let raws: Uint8Array[];
    try {
      raws = decodeTxList(await p2p!.request(peer, POOLED_TXS_PROTOCOL, new Uint8Array(), MAX_RESPONSE_BYTES));
    } catch (err) {
      if (/malformed/.test((err as Error).message)) report(peer, 'invalidMessages');
      return; // a peer gone or slow: its transactions come by gossip, or not at all
    }
    for (const raw of raws) await validateTx(peer, raw);
  }

  async function startP2P(isBanned: (peer: PeerIdStr | undefined, host: string | undefined) => boolean): Promise<P2P> {
    const node = await createP2P({
      dataDir: opts.dataDir, host: opts.host, port: opts.port, bootnodes: opts.bootnodes, maxPeers: opts.maxPeers,
      maxMessageBytes: MAX_GOSSIP_BYTES, requestTimeoutMs: 10_000, isBanned,
    });
    await node.serve(STATUS_PROTOCOL, MAX_REQUEST_BYTES, async (req, from) => {
      const theirs = decodeStatus(req);
      try { peerManager?.ref.tell({ type: 'peer.handshaked', peer: from, status: theirs }); } catch { /* stopping */ }
      return encodeStatus(ourStatus(reader, genesisHash));
    });
    await node.serve(BLOCKS_BY_RANGE_PROTOCOL, MAX_REQUEST_BYTES, async (req) => {
      const { start, count } = decodeRangeRequest(req);
      return encodeBlockList(fitResponse(await reader.rawBlocks(await reader.canonicalHashes(start, count))));
    });
    await node.serve(BLOCKS_BY_HASH_PROTOCOL, MAX_REQUEST_BYTES, async (req) =>
      encodeBlockList(fitResponse(await reader.rawBlocks(decodeHashRequest(req)))));
    await node.serve(POOLED_TXS_PROTOCOL, MAX_REQUEST_BYTES, async () => {
      const { pending, queued } = await txpool.ask('pool.list', {});
      return encodeTxList(fitResponse([...pending, ...queued].slice(0, MAX_POOLED_TXS).map((p) => txBytes(p.tx))));
    });
    node.onGossip(topics.blocks, validateBlock);
    node.onGossip(topics.txs, validateTx);
    p2p = node;
    return node;
  }

  peerManager = await deps.start(spawnPeerManager({ punishmentMs: opts.punishmentMs, maxRecords: 100 }, {
    reader, startP2P, onPeerStatus: (peer, status) => tellSync({ type: 'peer.status', peer, status }),
    onPeerJoined: (peer) => void takePooledTxs(peer),
  }));
  bus.subscribe(peerManager.ref, (e) => {
    if (e.type === 'chain.blockImported' && e.origin === 'local') return { type: 'gossip.publish' as const, topic: topics.blocks, encode: () => encodeBlock(e.block) };
    if (e.type === 'pool.txAdded') return { type: 'gossip.publish' as const, topic: topics.txs, encode: () => txBytes(e.tx) };
    return undefined;
  });
  return { peerManager, blockSync };
}

/** Encoded blocks (or transactions) in order until the first missing one, within the response size limit. */
function fitResponse(items: (Uint8Array | undefined)[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let size = 0;
  for (const raw of items) {
    if (!raw || size + raw.length > MAX_RESPONSE_BYTES - 1024) break;
    size += raw.length;
    out.push(raw);
  }
  return out;
}

/**
 * The block topic's validator: a block is relayed only once the chain imported it (full
 * verification: merged-mining proof, header rules, re-execution). The import outcome decides:
 * imported → accept (relay); known or orphan → ignore (not relayed, not the sender's fault);
 * invalid → reject (the sender is penalised by gossipsub's score and our peer manager).
 */
import { decodeBlock, type Block } from '../../chain/codec/block.ts';
import type { ChainView } from '../../chain/reader.ts';
import type { ImportOutcome, ImportResult } from '../../chain/writer.ts';
import type { PeerEvent } from '../peerEvents.ts';
import type { GossipVerdict, PeerIdStr } from '../types.ts';
import { logger } from '../../log.ts';

const log = logger('p2p');

const VERDICTS: Record<ImportResult, GossipVerdict> = {
  IMPORTED_BEST: 'accept', IMPORTED_NOT_BEST: 'accept', EXIST: 'ignore', NO_PARENT: 'ignore', INVALID_BLOCK: 'reject',
};

export interface BlockGossipDeps {
  readonly reader: ChainView;
  importBlock(block: Block): Promise<ImportOutcome>;
  report(peer: PeerIdStr, event: PeerEvent): void;
  /** A block whose parent we lack: its sender has blocks we do not (block sync takes it from there). */
  onOrphan(peer: PeerIdStr, number: bigint): void;
}

export function blockValidator(deps: BlockGossipDeps) {
  return async (from: PeerIdStr, data: Uint8Array): Promise<GossipVerdict> => {
    let block;
    try {
      block = decodeBlock(data, deps.reader.common);
    } catch {
      deps.report(from, 'invalidMessages');
      return 'reject';
    }
    if (await deps.reader.getHeader(block.hash)) return 'ignore';
    const outcome = await deps.importBlock(block);
    if (outcome.result === 'IMPORTED_BEST' || outcome.result === 'IMPORTED_NOT_BEST') deps.report(from, 'validBlocks');
    else if (outcome.result === 'NO_PARENT') deps.onOrphan(from, block.header.number);
    else if (outcome.result === 'INVALID_BLOCK') {
      log.warn(`invalid block #${block.header.number} from ${from.slice(-8)}: ${outcome.reason}`);
      deps.report(from, 'invalidBlocks');
    }
    return VERDICTS[outcome.result];
  };
}

/**
 * eth_bridgeState (README "Bridge state") with what this node really knows. The chain has no bridge
 * contract and the node follows no parent chain, so nothing waits for signatures and the parent
 * chain's height is unknown (an 80-byte parent-chain header does not carry it): the height is
 * reported as 0. What the node does see is the parent-chain header merge-mined into its head block.
 */
import { hex, quantity } from '../../../chain/codec/bytes.ts';
import { PARENT_HEADER_BYTES, parentHeaderHash, parseParentHeader, reverseBytes } from '../../../mergedmining/index.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';

export const ethBridgeMethods = (deps: Pick<RpcDeps, 'reader'>) => ({
  eth_bridgeState: method([], () => {
    const head = deps.reader.head();
    const raw = head.header.parentChainHeader;
    let latest = null;
    // Genesis has no merged-mining header; every mined block has one.
    if (raw.length === PARENT_HEADER_BYTES) {
      const parent = parseParentHeader(raw);
      latest = {
        // Display order, as parent-chain explorers print hashes. The built-in miner's headers have a zero prevHash.
        hash: hex(reverseBytes(parentHeaderHash(raw))),
        prevHash: hex(reverseBytes(parent.prevHash)),
        time: parent.time,
        bits: `0x${parent.bits.toString(16).padStart(8, '0')}`,
        blockNumber: quantity(head.number),
      };
    }
    return { txsWaitingForSignatures: [], parentChainBestChainHeight: 0, parentChainLatestHeader: latest };
  }),
});

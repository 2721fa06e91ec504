/** eth_* methods about the node itself (README "Method support"). */
import { hex, quantity } from '../../../chain/codec/bytes.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';

/** Highest wire capability the reference node reports. */
export const PROTOCOL_VERSION = '0x3e';

export const ethNodeMethods = (deps: RpcDeps) => ({
  eth_chainId: method([], () => `0x${deps.reader.network.chainId.toString(16).padStart(2, '0')}`),
  eth_protocolVersion: method([], () => PROTOCOL_VERSION),
  /** false, or {startingBlock, currentBlock, highestBlock} while block sync is catching up. */
  eth_syncing: method([], async () => {
    const status = await deps.sync.ask('sync.status', {});
    return status && { startingBlock: quantity(status.startingBlock), currentBlock: quantity(status.currentBlock), highestBlock: quantity(status.highestBlock) };
  }),
  eth_coinbase: method([], async () => hex((await deps.miner.ask('mining.status', {})).coinbase)),
  eth_accounts: method([], () => deps.wallet?.accounts() ?? []),
  eth_blockNumber: method([], () => quantity(deps.reader.head().number)),
});

/**
 * eth_* mining methods. eth_getWork serves miners that do not build a parent-chain block: the node
 * builds it (a tagged coinbase, its Merkle root, a header with nonce 0) and hands out the SHA-256
 * midstate of the header's first 64 bytes, its last 12 bytes before the nonce, and the target;
 * eth_submitWork's nonce completes the header (see README, "Mining").
 */
import { blockWork } from '../../../chain/codec/block.ts';
import { hex, quantity, toBig } from '../../../chain/codec/bytes.ts';
import type { RpcDeps } from '../../deps.ts';
import { method } from '../../method.ts';
import { bytesOfLength, hash32, quantity as quantityParam, type Param } from '../../params.ts';

const nonce8 = bytesOfLength(8, 'an 8-byte nonce');
/** A hash rate as a 32-byte hex string (as the interface describes it) or any hex quantity. */
const hashrate: Param<bigint> = (raw, name) => (typeof raw === 'string' && raw.length === 66 ? BigInt(raw) : quantityParam(raw, name));

/** Blocks looked at for eth_netHashrate (an hour of 14 s blocks is ~260). */
const NET_HASHRATE_MAX_BLOCKS = 2_000n;

export const ethMiningMethods = (deps: RpcDeps) => ({
  eth_mining: method([], async () => (await deps.miner.ask('mining.status', {})).mining),
  eth_hashrate: method([], async () => quantity((await deps.miner.ask('mining.status', {})).hashrate)),
  /** Expected hashes behind the last hour of canonical blocks (difficulty, uncles included) per second, as a JSON number. */
  eth_netHashrate: method([], async () => {
    const head = deps.reader.head();
    const since = head.header.timestamp - 3600n;
    let work = 0n;
    for (let n = head.number; n > 0n && head.number - n < NET_HASHRATE_MAX_BLOCKS; n--) {
      const block = await deps.reader.canonicalBlock(n);
      if (!block || block.header.timestamp < since) break;
      work += blockWork(block);
    }
    return Number(work / 3600n);
  }),
  eth_getWork: method([], () => deps.miner.ask('work.ethGet', {}, 30_000)),
  eth_submitWork: method([['nonce', nonce8], ['powHash', hash32], ['mixDigest', hash32]], async ([nonce, powHash]) =>
    deps.miner.ask('work.ethSubmit', { nonce: toBig(nonce), powHash: hex(powHash) }, 30_000)),
  eth_submitHashrate: method([['hashrate', hashrate], ['id', hash32]], ([rate, id]) =>
    deps.miner.ask('hashrate.report', { id: hex(id), hashesPerSecond: rate })),
});

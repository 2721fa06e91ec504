/**
 * chain_* raw data against a real node: raw headers hash to the block hash, raw receipts, receipt
 * proofs verified independently against receiptsRoot with @ethereumjs/mpt, protocol versions
 * consistent with eth_*, and eth_bridgeState reporting what the node has seen.
 */
import { createMPTFromProof, verifyMerkleProof } from '@ethereumjs/mpt';
import { RLP } from '@ethereumjs/rlp';
import { bytesToHex, hexToBytes } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../../helpers/node.ts';
import { deployTraceFixture, type TraceFixture } from '../../helpers/traceFixture.ts';

const Chain = suite('chain_* and eth_bridgeState');
const { url, call, fails, stop } = lazyNode();
let fixture: Promise<TraceFixture> | undefined;
const chain = async () => (fixture ??= deployTraceFixture(await url()));
Chain.after(stop);

const UNKNOWN = `0x${'ab'.repeat(32)}`;
const keccak = (h: string) => bytesToHex(keccak_256(hexToBytes(h as `0x${string}`)));

Chain('raw headers: keccak-256 of the RLP is the block hash, by hash and by every selector form', async () => {
  const f = await chain();
  for (const block of [f.block, await call('eth_getBlockByNumber', ['earliest', false])]) {
    const raw = await call<string>('chain_getRawBlockHeaderByHash', [block.hash]);
    assert.is(keccak(raw), block.hash);
    const fields = RLP.decode(hexToBytes(raw as `0x${string}`)) as Uint8Array[];
    assert.is(fields.length, 18, '17 header fields and the parent-chain header (RSKIP92: no coinbase, no proof)');
    assert.is(bytesToHex(fields[0]!), block.parentHash);
    assert.is(bytesToHex(fields[5]!), block.receiptsRoot);
    assert.is(bytesToHex(fields[17]!), block.parentChainMergedMiningHeader);
    for (const sel of [block.number, block.hash]) assert.is(await call('chain_getRawBlockHeaderByNumber', [sel]), raw);
  }
  const latest = await call('eth_getBlockByNumber', ['latest', false]);
  assert.is(keccak(await call('chain_getRawBlockHeaderByNumber', ['latest'])), latest.hash);
  assert.is(await call('chain_getRawBlockHeaderByHash', [UNKNOWN]), null);
  assert.is(await call('chain_getRawBlockHeaderByNumber', ['0xffffff']), null);
  const bad = await fails('chain_getRawBlockHeaderByNumber', ['tomorrow']);
  assert.is(bad.code, -32602);
  assert.match(bad.message, /block/);
});

Chain('raw receipts: [status, cumulative gas, bloom, logs] as in the receipts trie', async () => {
  const f = await chain();
  for (const r of [f.nested, f.failing]) {
    const raw = await call<string>('chain_getRawTransactionReceiptByHash', [r.transactionHash]);
    const [status, cumulative, bloom, logs] = RLP.decode(hexToBytes(raw as `0x${string}`)) as unknown as [Uint8Array, Uint8Array, Uint8Array, Uint8Array[][]];
    assert.is(status.length ? bytesToHex(status) : '0x0', r.status === '0x1' ? '0x01' : '0x0');
    assert.is(BigInt(bytesToHex(cumulative)), BigInt(r.cumulativeGasUsed));
    assert.is(bytesToHex(bloom), r.logsBloom);
    assert.is(logs.length, r.logs.length);
  }
  assert.is(await call('chain_getRawTransactionReceiptByHash', [UNKNOWN]), null);
});

Chain('receipt proofs verify against the block\'s receiptsRoot, independently of the node', async () => {
  const f = await chain();
  const receiptsRoot = hexToBytes(f.block.receiptsRoot);
  for (const [index, r] of [f.nested, f.failing, f.kill, f.transfer].entries()) {
    const nodes = (await call<string[]>('chain_getTransactionReceiptNodesByHash', [f.block.hash, r.transactionHash])).map((n) => hexToBytes(n as `0x${string}`));
    assert.ok(nodes.length >= 1);
    assert.is(bytesToHex(keccak_256(nodes[0]!)), f.block.receiptsRoot, 'the first node is the root');
    const key = RLP.encode(index);
    const proven = await verifyMerkleProof(key, nodes, { root: receiptsRoot });
    assert.ok(proven, `receipt ${index} is proven`);
    assert.is(bytesToHex(proven!), await call('chain_getRawTransactionReceiptByHash', [r.transactionHash]));
    const trie = await createMPTFromProof(nodes);
    assert.is(bytesToHex(trie.root()), f.block.receiptsRoot);
    assert.is(bytesToHex((await trie.get(key))!), bytesToHex(proven!));
  }
  // A tampered node no longer proves anything against the root.
  const nodes = (await call<string[]>('chain_getTransactionReceiptNodesByHash', [f.block.hash, f.kill.transactionHash])).map((n) => hexToBytes(n as `0x${string}`));
  const tampered = nodes.map((n) => n.slice());
  tampered[tampered.length - 1]![tampered[tampered.length - 1]!.length - 1]! ^= 1;
  await verifyMerkleProof(RLP.encode(2), tampered, { root: receiptsRoot }).then(
    () => assert.unreachable('a tampered proof must not verify'),
    (err) => assert.instance(err, Error),
  );
});

Chain('receipt nodes: null for a transaction of another block, an error for an unknown block', async () => {
  const f = await chain();
  assert.is(await call('chain_getTransactionReceiptNodesByHash', [f.block.hash, f.deploy.transactionHash]), null);
  const err = await fails('chain_getTransactionReceiptNodesByHash', [UNKNOWN, f.nested.transactionHash]);
  assert.is(err.code, -32001);
  assert.match(err.message, /Block with hash 0xabab.* not found/);
  const swapped = await fails('chain_getTransactionReceiptNodesByHash', [f.nested.transactionHash, f.block.hash]);
  assert.is(swapped.code, -32001, 'parameters are [blockHash, txHash]');
});

Chain('protocol versions and chain id agree across eth_, chain_ and net_', async () => {
  assert.is(await call('chain_protocolVersion'), '0x3e');
  assert.is(await call('eth_protocolVersion'), await call('chain_protocolVersion'));
  assert.is(await call('eth_chainId'), '0x21');
  assert.is(BigInt(await call('eth_chainId')).toString(), await call('net_version'));
});

Chain('eth_bridgeState: nothing waits for signatures, height unknown (0), the parent-chain header of the head block', async () => {
  await chain();
  const state = await call('eth_bridgeState');
  const head = await call('eth_getBlockByNumber', ['latest', false]);
  const header = hexToBytes(head.parentChainMergedMiningHeader);
  assert.equal(Object.keys(state).sort(), ['parentChainBestChainHeight', 'parentChainLatestHeader', 'txsWaitingForSignatures']);
  assert.equal(state.txsWaitingForSignatures, []);
  assert.is(state.parentChainBestChainHeight, 0);
  assert.equal(state.parentChainLatestHeader, {
    hash: bytesToHex(sha256(sha256(header)).reverse()),
    prevHash: `0x${'00'.repeat(32)}`, // the built-in miner's parent headers start no parent chain
    time: Buffer.from(header).readUInt32LE(68),
    bits: `0x${Buffer.from(header).readUInt32LE(72).toString(16).padStart(8, '0')}`,
    blockNumber: head.number,
  });
});

Chain.run();

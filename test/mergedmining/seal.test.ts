import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@ethereumjs/util';
import {
  buildMergedMiningSeal,
  coinbaseTxidFromCompressed,
  compressCoinbase,
  findTaggedHash,
  meetsTarget,
  parentHeaderHashValue,
  parseParentHeader,
  serializeParentHeader,
  solveParentHeader,
  targetFromDifficulty,
  verifyMergedMiningProof,
  type ParentHeader,
} from '../../src/mergedmining/index.js';

const Seal = suite('seal');

const random32 = () => new Uint8Array(randomBytes(32));

const template = (): ParentHeader => ({
  version: 0x20000000,
  prevHash: new Uint8Array(32),
  merkleRoot: new Uint8Array(32).fill(5),
  time: 1_700_000_000,
  bits: 0x207fffff,
  nonce: 0,
});

Seal('a regtest seal (difficulty 1) passes verifyMergedMiningProof', () => {
  for (let i = 0; i < 20; i++) {
    const hash = random32();
    const seal = buildMergedMiningSeal(hash, 1n);
    assert.equal(verifyMergedMiningProof({ ...seal, hashForMergedMining: hash, difficulty: 1n }), { ok: true });
    assert.is(seal.proof.length, 0);
    assert.is(bytesToHex(findTaggedHash(seal.coinbase)), bytesToHex(hash));
    assert.is(bytesToHex(seal.coinbase), bytesToHex(compressCoinbase(seal.fullCoinbase)));
  }
});

Seal('header fields: version 0x20000000, bits 0x207fffff, zero prev hash, given time, root = coinbase txid', () => {
  const seal = buildMergedMiningSeal(random32(), 1n, { time: 1_234_567 });
  const header = parseParentHeader(seal.header);
  assert.is(header.version, 0x20000000);
  assert.is(header.bits, 0x207fffff);
  assert.is(header.time, 1_234_567);
  assert.is(bytesToHex(header.prevHash), `0x${'00'.repeat(32)}`);
  assert.is(bytesToHex(header.merkleRoot), bytesToHex(coinbaseTxidFromCompressed(seal.coinbase)));
});

Seal('with other txids the proof has one sibling per level and still verifies', () => {
  const hash = random32();
  const seal = buildMergedMiningSeal(hash, 1000n, { otherTxids: [random32(), random32(), random32(), random32()] });
  assert.is(seal.proof.length, 3 * 32);
  assert.ok(meetsTarget(seal.header, targetFromDifficulty(1000n)));
  assert.equal(verifyMergedMiningProof({ ...seal, hashForMergedMining: hash, difficulty: 1000n }), { ok: true });
  assert.not.ok(verifyMergedMiningProof({ ...seal, hashForMergedMining: hash, difficulty: 1n << 200n }).ok);
});

Seal('difficulty 1 takes well under a millisecond per seal', () => {
  const hash = random32();
  for (let i = 0; i < 20; i++) buildMergedMiningSeal(hash, 1n);
  const runs = 200;
  const start = performance.now();
  for (let i = 0; i < runs; i++) buildMergedMiningSeal(hash, 1n, { time: i });
  const perSealMs = (performance.now() - start) / runs;
  assert.ok(perSealMs < 1, `${perSealMs.toFixed(3)} ms per seal`);
});

Seal('solveParentHeader returns the first nonce from the template nonce that meets the target', () => {
  const target = targetFromDifficulty(16n);
  const solved = solveParentHeader({ ...template(), nonce: 1000 }, target);
  assert.ok(solved);
  assert.ok(solved.nonce >= 1000);
  assert.ok(meetsTarget(serializeParentHeader(solved), target));
  for (let nonce = 1000; nonce < solved.nonce; nonce++) {
    assert.not.ok(meetsTarget(serializeParentHeader({ ...template(), nonce }), target), `nonce ${nonce}`);
  }
  assert.equal({ ...solved, nonce: 1000 }, { ...template(), nonce: 1000 });
});

Seal('solveParentHeader gives up after maxTries or at the end of the nonce space', () => {
  assert.is(solveParentHeader(template(), 0n, 50), undefined);
  assert.is(solveParentHeader({ ...template(), nonce: 0xffffffff - 3 }, 0n), undefined);
  const last = { ...template(), nonce: 0xffffffff };
  const lastValue = parentHeaderHashValue(serializeParentHeader(last));
  assert.equal(solveParentHeader(last, lastValue), last);
  assert.throws(() => buildMergedMiningSeal(random32(), 1n << 250n, { maxTries: 10 }), /no nonce meets the target/);
});

Seal.run();

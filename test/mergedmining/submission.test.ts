/**
 * A solved template's solution taken directly (templateSolution, the built-in miner's) is the one
 * an external miner's submission of the same block gives (mnr_submitBitcoinBlock), and it verifies.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { bytesToHex } from '@ethereumjs/util';
import {
  compressCoinbase, parentBlockBytes, parentBlockTemplate, solutionFromParentBlock, solveParentHeader, targetFromDifficulty, templateSolution,
  verifyMergedMiningProof,
} from '../../src/mergedmining/index.js';

const Submission = suite('submission');
const hexes = (s: { header: Uint8Array; coinbase: Uint8Array; proof: Uint8Array }) => [s.header, s.coinbase, s.proof].map(bytesToHex);

Submission('a template\'s solution is the one its serialized block gives, for any nonce, and it verifies once solved', () => {
  for (const extraNonce of [0, 1, 0xfffffffe]) {
    const hash = randomBytes(32);
    const t = parentBlockTemplate(hash, 1_700_000_000 + (extraNonce % 1000), extraNonce);
    for (const nonce of [0, 7, 0xffffffff]) {
      assert.equal(hexes(templateSolution(t, nonce)), hexes(solutionFromParentBlock(parentBlockBytes(t, nonce))), `extra nonce ${extraNonce}, nonce ${nonce}`);
    }
    const difficulty = 3n;
    const solved = solveParentHeader(t.header, targetFromDifficulty(difficulty))!;
    const s = templateSolution(t, solved.nonce);
    const verdict = verifyMergedMiningProof({ header: s.header, coinbase: compressCoinbase(s.coinbase), proof: s.proof, hashForMergedMining: hash, difficulty });
    assert.ok(verdict.ok, JSON.stringify(verdict));
  }
});

Submission.run();

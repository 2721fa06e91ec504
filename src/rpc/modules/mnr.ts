/**
 * mnr_*: merged-mining work and submissions (docs/merged-mining.md "Submissions"). Hex parameters are plain hex
 * (a `0x` prefix is tolerated); undecodable submissions are -32602, refused solutions -33000.
 */
import { quantity, type Hex } from '../../chain/codec/bytes.ts';
import type { SubmitResult } from '../../actors/miner/index.ts';
import { solutionFromParentBlock, solutionFromPartialMerkle, solutionFromTransactions, type ParentSolution } from '../../mergedmining/index.ts';
import { NodeError } from '../../errors.ts';
import type { RpcDeps } from '../deps.ts';
import { invalidParams } from '../errors.ts';
import { method } from '../method.ts';
import { text, type Param } from '../params.ts';

/** Plain hex as the reference's mining pools send it. */
const plainHex: Param<Uint8Array> = (raw, name) => {
  const s = text(raw, name).replace(/^0x/i, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(s)) throw invalidParams(`invalid argument ${name}: expected hex bytes, got ${JSON.stringify(String(raw).slice(0, 40))}`);
  return Buffer.from(s, 'hex');
};

/** Whitespace-separated 32-byte hashes. */
const hashList: Param<Uint8Array[]> = (raw, name) =>
  text(raw, name).split(/\s+/).filter(Boolean).map((h, i) => {
    const bytes = plainHex(h, `${name}[${i}]`);
    if (bytes.length !== 32) throw invalidParams(`invalid argument ${name}[${i}]: expected a 32-byte hash, got ${bytes.length} bytes`);
    return bytes;
  });

/** Transaction count as hex text (a JSON number is read as its decimal text, then as hex, like the reference). */
const txCount: Param<number> = (raw, name) => {
  const s = typeof raw === 'number' ? String(raw) : text(raw, name).replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{1,8}$/.test(s)) throw invalidParams(`invalid argument ${name}: expected a hex transaction count`);
  return parseInt(s, 16);
};

const ascii = (s: string): Hex => `0x${Buffer.from(s, 'ascii').toString('hex')}`;

/** SubmittedBlockInfo (docs/merged-mining.md "Submissions"). */
const submittedBlockInfo = (r: SubmitResult) => ({
  blockImportedResult: ascii(r.result), blockHash: r.blockHash, blockIncludedHeight: quantity(r.number),
});

/** Builds a solution from submitted data; data that does not decode is an invalid-params error. */
function decodeSolution(what: string, build: () => ParentSolution): ParentSolution {
  try {
    return build();
  } catch (err) {
    throw invalidParams(`invalid ${what}: ${(err as Error).message}`);
  }
}

export const mnrModule = (deps: Pick<RpcDeps, 'miner'>) => {
  const submit = async (solution: ParentSolution) => submittedBlockInfo(await deps.miner.ask('work.submit', solution, 30_000));
  return {
    mnr_getWork: method([], () => deps.miner.ask('work.get', {}, 30_000)),
    mnr_submitBitcoinBlock: method([['bitcoinBlockHex', plainHex]], ([block]) =>
      submit(decodeSolution('parent-chain block', () => solutionFromParentBlock(block)))),
    mnr_submitBitcoinBlockTransactions: method(
      [['blockHashHex', text], ['blockHeaderHex', plainHex], ['coinbaseHex', plainHex], ['txnHashesHex', hashList]],
      ([, header, coinbase, txids]) => submit(decodeSolution('submission', () => solutionFromTransactions(header, coinbase, txids)))),
    mnr_submitBitcoinBlockPartialMerkle: method(
      [['blockHashHex', text], ['blockHeaderHex', plainHex], ['coinbaseHex', plainHex], ['merkleHashesHex', text], ['blockTxnCountHex', txCount]],
      async ([, header, coinbase, merkleHashes]) => {
        const hashes = hashList(merkleHashes, '3 (merkleHashesHex)');
        if (hashes.length === 0) throw new NodeError('MM_SUBMIT_REJECTED', "The list of merkle hashes can't be empty");
        return submit(decodeSolution('submission', () => solutionFromPartialMerkle(header, coinbase, hashes)));
      }),
  };
};

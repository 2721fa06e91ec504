/** Pool admission rules, pure: the reference's order and messages (docs/chain.md "Transaction admission"). */
import { createLegacyTx } from '@ethereumjs/tx';
import { hexToBytes } from '@ethereumjs/util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_TXPOOL_OPTIONS } from '../../../src/actors/txpool/options.ts';
import { admissionProblem, REFUSAL_IS_PEER_FAULT, type AdmissionFacts } from '../../../src/actors/txpool/rules.ts';
import { createChainCommon } from '../../../src/chain/execution/common.ts';
import type { BlockHeader } from '../../../src/chain/codec/header.ts';
import { DEV_ACCOUNTS, NETWORKS } from '../../../src/chain/execution/networks.ts';

const Rules = suite('txpool admission rules');
const common = createChainCommon(NETWORKS.regtest);
const head = { gasLimit: 7_500_000n, minimumGasPrice: 10n } as BlockHeader;
const tx = (fields: { nonce?: bigint; gasPrice?: bigint; gasLimit?: bigint; value?: bigint } = {}) =>
  createLegacyTx({ nonce: 5n, gasPrice: 10n, gasLimit: 21_000n, value: 1n, to: hexToBytes(`0x${'22'.repeat(20)}`), ...fields }, { common })
    .sign(DEV_ACCOUNTS[0]!.privateKey);
const facts = (over: Partial<AdmissionFacts> = {}): AdmissionFacts =>
  ({ tx: tx(), head, account: { nonce: 5n, balance: 10n ** 18n, hasCode: false }, othersCost: 0n, ...over });
/** The miner's target equals the head's minimum here, so the next block's minimum is the head's. */
const OPTIONS = { ...DEFAULT_TXPOOL_OPTIONS, minGasPriceTarget: 10n };
const refusal = (over: Partial<AdmissionFacts> = {}) => admissionProblem(facts(over), OPTIONS);
const problem = (over: Partial<AdmissionFacts> = {}) => refusal(over)?.message;

Rules('an ordinary transaction passes', () => {
  assert.is(problem(), undefined);
});

Rules('the gas price is checked against the next block\'s minimum, which moves toward the target', () => {
  const toward = (minGasPriceTarget: bigint, gasPrice: bigint) =>
    admissionProblem(facts({ tx: tx({ gasPrice }) }), { ...DEFAULT_TXPOOL_OPTIONS, minGasPriceTarget })?.message;
  assert.match(toward(1_000n, 10n)!, /lower than block's minimum: 10 < 11 \(the next block's\)/, 'rising: the head\'s minimum is too little');
  assert.is(toward(1_000n, 11n), undefined);
  assert.is(toward(0n, 9n), undefined, 'falling: the next block accepts less than the head');
});

Rules('each rule, with its message', () => {
  assert.match(problem({ tx: tx({ gasLimit: 8_000_000n }) })!, /^transaction's gas limit of 8000000 is higher than the block's gas limit of 7500000$/);
  assert.match(problem({ tx: tx({ nonce: 4n }) })!, /^transaction nonce too low/);
  assert.match(problem({ tx: tx({ nonce: 69n }) })!, /^transaction nonce too high/);
  assert.is(problem({ tx: tx({ nonce: 68n }) }), undefined);
  assert.match(problem({ account: { nonce: 5n, balance: 210_000n, hasCode: false } })!, /^insufficient funds: the sender has 210000 wei, the transaction needs 210001$/);
  assert.match(problem({ tx: tx({ gasPrice: 9n }) })!, /^transaction's gas price lower than block's minimum: 9 < 10 \(the next block's\)$/);
  assert.match(problem({ tx: tx({ gasLimit: 20_999n }) })!, /^transaction's basic cost is above the gas limit/);
  assert.is(problem({ tx: tx({ gasPrice: 800n }) }), undefined);
  assert.match(problem({ tx: tx({ gasPrice: 801n }) })!, /^transaction's gas price exceeds cap: 801 > 800/);
  assert.is(problem({ head: { ...head, minimumGasPrice: 0n }, tx: tx({ gasPrice: 10n ** 9n }) }), undefined, 'no cap when the minimum is 0');
  assert.match(problem({ replacing: 10n, tx: tx({ gasPrice: 13n }) })!, /^gas price not enough to bump transaction: 13 given, at least 14 needed/);
  assert.is(problem({ replacing: 10n, tx: tx({ gasPrice: 14n }) }), undefined);
  // new ≥ old × 1.4, rounded up where it is not whole; 0 replaces 0.
  assert.match(problem({ replacing: 11n, tx: tx({ gasPrice: 15n }) })!, /at least 16 needed \(40% over 11\)$/);
  const free = facts({ head: { ...head, minimumGasPrice: 0n }, replacing: 0n, tx: tx({ gasPrice: 0n }) });
  assert.is(admissionProblem(free, DEFAULT_TXPOOL_OPTIONS), undefined, 'price 0 everywhere (regtest)');
  assert.match(problem({ othersCost: 10n ** 18n - 210_000n })!, /^insufficient funds to pay for pending and new transactions/);
  assert.is(problem({ account: { nonce: 5n, balance: 10n ** 18n, hasCode: true } }), 'invalid sender: the account holds code, so it cannot send transactions (EIP-3607)');
});

Rules('each refusal has a kind, and only those no state could admit are the sender\'s fault', () => {
  const kinds = (over: Partial<AdmissionFacts>) => { const r = refusal(over)!; return [r.kind, REFUSAL_IS_PEER_FAULT[r.kind]]; };
  assert.equal(kinds({ tx: tx({ gasLimit: 20_999n }) }), ['intrinsicGas', true]);
  assert.equal(kinds({ tx: tx({ nonce: 4n }) }), ['nonceTooLow', false]);
  assert.equal(kinds({ account: { nonce: 5n, balance: 10n ** 18n, hasCode: true } }), ['senderHasCode', false]);
  assert.equal(kinds({ account: { nonce: 5n, balance: 0n, hasCode: false } }), ['insufficientFunds', false]);
  assert.equal(kinds({ tx: tx({ gasPrice: 9n }) }), ['underpriced', false]);
  assert.equal(kinds({ replacing: 10n, tx: tx({ gasPrice: 13n }) }), ['replacementUnderpriced', false]);
  assert.is(admissionProblem(facts(), { ...DEFAULT_TXPOOL_OPTIONS, maxTxBytes: 50 })?.kind, 'oversized');
  assert.is(REFUSAL_IS_PEER_FAULT.oversized, true);
});

Rules('the first broken rule is the one reported, in the reference order', () => {
  // Too low a nonce and too poor at once: the nonce comes first.
  assert.match(problem({ tx: tx({ nonce: 1n }), account: { nonce: 5n, balance: 0n, hasCode: false } })!, /nonce too low/);
  // Underpriced and below intrinsic gas: funds, then price, then intrinsic gas.
  assert.match(problem({ tx: tx({ gasPrice: 1n, gasLimit: 1_000n }) })!, /gas price lower than block's minimum/);
});

Rules.run();

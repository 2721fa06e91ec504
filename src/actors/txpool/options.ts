/** The transaction pool's options (--txpool-size, --txpool-account-slots, --tx-expiry-*) and their defaults. */

export interface TxPoolOptions {
  /** Largest accepted transaction (reference: 128 KiB). */
  readonly maxTxBytes: number;
  /** How far past the account nonce a transaction may wait: the per-sender limit (reference `accountSlots` 16; 64 here). */
  readonly accountSlots: number;
  /** Transactions held in all; past it the cheapest is evicted for a better-paying one. */
  readonly maxTxs: number;
  /** Replacement needs a gas price at least this much higher, in percent (reference 40): new ≥ old × (100 + this) / 100. */
  readonly priceBumpPercent: bigint;
  /** Expiry (reference `transaction.outdated.threshold` / `.timeout`): more than this many blocks, or this long, since arrival. */
  readonly maxAgeBlocks: bigint;
  readonly maxAgeMs: number;
  /** Blocks after which a mined transaction is forgotten; a reorg deeper than this re-admits it as new. */
  readonly confirmDepth: bigint;
  /** The miner's `--min-gas-price` target: with it the pool knows the next block's minimum (docs/rpc-compatibility.md "Gas price"). */
  readonly minGasPriceTarget: bigint;
}

export const DEFAULT_TXPOOL_OPTIONS: TxPoolOptions = {
  maxTxBytes: 131_072, accountSlots: 64, maxTxs: 20_000, priceBumpPercent: 40n, maxAgeBlocks: 10n, maxAgeMs: 650_000, confirmDepth: 64n,
  minGasPriceTarget: 0n,
};

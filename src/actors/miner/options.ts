/** The miner's options (--block-time, --no-mining, --miner, --coinbase, --min-gas-price). */

/** auto: a block as soon as the pool has a transaction; interval: one every `blockTimeMs`; off: none of its own. */
export type MiningMode = 'auto' | 'interval' | 'off';

export interface MinerOptions {
  mode: MiningMode;
  /** Interval between blocks in 'interval' mode. */
  blockTimeMs: number;
  coinbase: Uint8Array;
  /** The minimum gas price the miner moves blocks toward (1 % per block). */
  minGasPriceTarget: bigint;
}

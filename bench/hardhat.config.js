// Hardhat 3 config for the benchmark's peer node (`hardhat node`), started by bench/peers.ts.
// The funded keys and chain id come from the bench process, so all peers share the same accounts.
const keys = (process.env.BENCH_KEYS ?? '').split(',').filter(Boolean);
const chainId = Number(process.env.BENCH_CHAIN_ID ?? 33);

export default {
  networks: {
    node: {
      type: 'edr-simulated',
      chainId,
      hardfork: 'cancun',
      // Legacy transactions at the bench's gas price are always above a zero base fee.
      initialBaseFeePerGas: 0,
      mining: { auto: true, interval: 0 },
      accounts: keys.map((privateKey) => ({ privateKey, balance: (10n ** 30n).toString() })),
    },
  },
};

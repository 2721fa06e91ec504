/**
 * The three networks this node knows (docs/chain.md "Networks"): chain ids, genesis fields and
 * the regtest development accounts (private key = keccak256 of the seed `cow`, `cow1`, …).
 */
import { bytesToHex } from '@ethereumjs/util';
import { addressOfPrivateKey } from '../codec/keyAddress.ts';
import { fromHex } from '../codec/bytes.ts';

export type NetworkName = 'regtest' | 'testnet' | 'mainnet';

export interface DevAccount {
  readonly seed: string;
  readonly privateKey: Uint8Array;
  readonly address: Uint8Array;
}

export interface Network {
  readonly name: NetworkName;
  readonly chainId: bigint;
  /** Difficulty rules (docs/chain.md "Difficulty"). */
  readonly durationLimitSec: bigint;
  readonly difficultyDivisor: bigint;
  readonly minimumDifficulty: bigint;
  readonly genesisDifficulty: bigint;
  /** Block gas limit the miner moves toward by parent/1024 per block (docs/chain.md "Gas limit"). */
  readonly targetGasLimit: bigint;
  readonly genesisGasLimit: bigint;
  /** Accounts funded at genesis, in wei. */
  readonly alloc: ReadonlyMap<string, bigint>;
  /** Accounts the node holds unlocked (regtest only). */
  readonly devAccounts: readonly DevAccount[];
  /** The reference regtest miner account, used as default coinbase. */
  readonly defaultCoinbase: Uint8Array;
}

const DEV_KEYS = [
  'c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4',
  '0c06818f82e04c564290b32ab86b25676731fc34e9a546108bf109194c8e3aae',
  '88fcad7d65de4bf854b88191df9bf38648545e7e5ea367dff6e025b06a28244d',
  '1786958bf8781c0047f94c9bd7e39402cdadebef6f8faca6b503b991814f5e75',
  '3927ff59ac5da854e7633682792aae26e8f83b515c3c6dc7520b5733d4588b8a',
  '20e4a6381bd3826a14f8da63653d94e7102b38eb5f929c7a94652f41fa7ba323',
  'c1783a9a8222e47778911c58bb5aac1343eb425159ff140799e0a283bfb8fa16',
  'e88b7bfb0b3ffe2245e3293e20901022ea01ebc19898dfe468289c9a07672627',
  'd77b8a342be95c5c31fa85c20450b424663c4fb4a499cfc80c202c592c85c219',
  '082f57b8084286a079aeb9f2d0e17e565ced44a2cb9ce4844e6d4b9d89f3f595',
];

export const DEV_ACCOUNTS: readonly DevAccount[] = DEV_KEYS.map((key, i) => {
  const privateKey = fromHex(`0x${key}`);
  return Object.freeze({ seed: i === 0 ? 'cow' : `cow${i}`, privateKey, address: addressOfPrivateKey(privateKey) });
});

const BRIDGE = '0x0000000000000000000000000000000001000006';
const REGTEST_MINER = fromHex('0xec4ddeb4380ad69b3e509baad9f158cdf4e4681d');

const regtestAlloc = new Map<string, bigint>([
  [BRIDGE, 21_000_000n * 10n ** 18n],
  ...DEV_ACCOUNTS.map((a): [string, bigint] => [bytesToHex(a.address), 10n ** 30n]),
]);

export const NETWORKS: Record<NetworkName, Network> = {
  regtest: {
    name: 'regtest', chainId: 33n, durationLimitSec: 10n, difficultyDivisor: 2048n, minimumDifficulty: 1n,
    genesisDifficulty: 1n, targetGasLimit: 7_500_000n, genesisGasLimit: 10_000_000n, alloc: regtestAlloc,
    devAccounts: DEV_ACCOUNTS, defaultCoinbase: REGTEST_MINER,
  },
  testnet: {
    name: 'testnet', chainId: 31n, durationLimitSec: 14n, difficultyDivisor: 400n, minimumDifficulty: 131_072n,
    genesisDifficulty: 131_072n, targetGasLimit: 6_800_000n, genesisGasLimit: 6_800_000n,
    alloc: new Map([[BRIDGE, 21_000_000n * 10n ** 18n]]), devAccounts: [], defaultCoinbase: new Uint8Array(20),
  },
  mainnet: {
    name: 'mainnet', chainId: 30n, durationLimitSec: 14n, difficultyDivisor: 400n, minimumDifficulty: 7n * 10n ** 15n,
    genesisDifficulty: 7n * 10n ** 15n, targetGasLimit: 6_800_000n, genesisGasLimit: 6_800_000n,
    alloc: new Map([[BRIDGE, 21_000_000n * 10n ** 18n]]), devAccounts: [], defaultCoinbase: new Uint8Array(20),
  },
};

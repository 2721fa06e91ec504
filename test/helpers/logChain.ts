/**
 * Chains driven by hand for the log tests: Logger contracts (test/fixtures/Logger.sol), blocks of
 * transactions that log, and a node serving one chain over HTTP and WebSocket with the log and
 * filter methods while the test imports its blocks itself, so it can hand it a heavier side branch.
 */
import { createLegacyTx, type TypedTransaction } from '@ethereumjs/tx';
import { Address, createContractAddress } from '@ethereumjs/util';
import { Interface } from 'ethers';
import { DEFAULT_FILTER_OPTIONS, spawnFilterSupervisor } from '../../src/actors/filterSupervisor/index.ts';
import type { NodeEvent } from '../../src/actors/events.ts';
import { createEventBus } from '../../src/actors/kernel/index.ts';
import { toLiveEvent } from '../../src/actors/liveEvents.ts';
import { spawnRpcListener } from '../../src/rpc/listener/index.ts';
import { LiveLogSource } from '../../src/chain/logs/liveLogs.ts';
import { defaultSwitches } from '../../src/rpc/switches.ts';
import type { Block } from '../../src/chain/codec/block.ts';
import { fromHex, hex, type Hex } from '../../src/chain/codec/bytes.ts';
import { DEV_ACCOUNTS } from '../../src/chain/execution/networks.ts';
import type { ChainReader } from '../../src/chain/reader.ts';
import type { HeadChange, ImportOutcome } from '../../src/chain/writer.ts';
import { ethFilterMethods } from '../../src/rpc/modules/eth/filters.ts';
import { ethLogMethods } from '../../src/rpc/modules/eth/logs.ts';
import type { TestChain } from './chain.ts';
import { compileFixture } from './solc.ts';

const logger = compileFixture('Logger.sol', 'Logger');
export const LOGGER = new Interface(logger.abi);
export const PING = LOGGER.getEvent('Ping')!.topicHash as Hex;
export const PONG = LOGGER.getEvent('Pong')!.topicHash as Hex;
const SENDER = DEV_ACCOUNTS[0]!;

/** A 32-byte topic made of one repeated byte, easy to read in failures. */
export const topic = (byte: number): Hex => hex(new Uint8Array(32).fill(byte));

/** Signs the sender's transactions on one chain, nonce after nonce (each chain of a fork counts its own). */
export class Sender {
  nonce = 0n;
  constructor(private readonly chain: TestChain) {}

  tx(to: Uint8Array | undefined, data: string): TypedTransaction {
    return createLegacyTx({ nonce: this.nonce++, to, data: fromHex(data), gasLimit: 2_000_000n, gasPrice: 0n }, { common: this.chain.reader.common })
      .sign(SENDER.privateKey);
  }

  /** A transaction that deploys a Logger, and the address it will have. */
  deployTx(): { tx: TypedTransaction; address: Uint8Array } {
    const address = createContractAddress(new Address(SENDER.address), this.nonce).bytes;
    return { tx: this.tx(undefined, logger.bytecode), address };
  }

  /** One log with exactly these topics. */
  raw(at: Uint8Array, topics: Hex[], data: Hex = '0x'): TypedTransaction {
    return this.tx(at, LOGGER.encodeFunctionData('raw', [topics, data]));
  }

  /** `count` Ping logs and one Pong. */
  ping(at: Uint8Array, count: number, value: number): TypedTransaction {
    return this.tx(at, LOGGER.encodeFunctionData('ping', [count, value]));
  }
}

/** Builds a block of `txs` on the chain's head, seals it and imports it; it must become the head. */
export async function mine(chain: TestChain, txs: TypedTransaction[]): Promise<{ block: Block; outcome: ImportOutcome }> {
  const template = await chain.writer.build({ coinbase: new Uint8Array(20), txs, timestamp: 0n, minimumGasPriceTarget: 0n });
  if (template.txs.length !== txs.length) throw new Error(`a transaction was left out: ${template.rejected.map((r) => r.reason).join('; ')}`);
  const block = await chain.sealed(template);
  const outcome = await chain.writer.import(block);
  if (outcome.result !== 'IMPORTED_BEST') throw new Error(`block ${block.header.number} imported as ${outcome.result} ${outcome.reason ?? ''}`);
  return { block, outcome };
}

export interface ServedChain {
  readonly url: string;
  readonly wsUrl: string;
  /** Imports a block into the served chain and tells the filters and subscriptions, as the chain actor does. */
  import(block: Block): Promise<ImportOutcome>;
  /** Announces a head change made directly with the chain's writer. */
  announce(change: HeadChange): void;
  stop(): Promise<void>;
}

/** Serves eth_getLogs, the filter methods and eth_subscribe for `chain`, with the node's own actors. */
export async function serveChain(chain: TestChain, opts: { idleTimeoutMs?: number; maxBuffered?: number } = {}): Promise<ServedChain> {
  const reader: ChainReader = chain.reader;
  const bus = createEventBus<NodeEvent>();
  const logs = new LiveLogSource(reader);
  const filters = spawnFilterSupervisor({ ...DEFAULT_FILTER_OPTIONS, ...opts }, { logs });
  await filters.ready;
  bus.subscribe(filters.ref, toLiveEvent);
  // No pool feeds this chain: its pending block has no logs.
  const pending = { get: async () => ({ logs: [] }) };
  const methods = { ...ethLogMethods({ reader, pending }), ...ethFilterMethods({ reader, pending, filters: filters.ref }) };
  const listener = spawnRpcListener({ methods, switches: defaultSwitches('regtest'), host: '127.0.0.1', port: 0, gate: undefined, reader, logs });
  await listener.ready;
  bus.subscribe(listener.ref, toLiveEvent);
  const { port } = await listener.ref.ask('listener.address', {});
  const announce = (change: HeadChange) => bus.publish({ type: 'chain.headChanged', ...change });
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    announce,
    async import(block) {
      const outcome = await chain.writer.import(block);
      if (outcome.headChange) announce(outcome.headChange);
      return outcome;
    },
    async stop() {
      await listener.stop();
      await filters.stop();
    },
  };
}

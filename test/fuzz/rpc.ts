/**
 * Property tests of the JSON-RPC surface against a real node over HTTP (docs/hardening.md "Fuzzing"):
 * every method the node answers for with hostile parameters, hostile envelopes, batches and raw bodies.
 * Each reply must be a JSON-RPC 2.0 response (or a batch of them), never -32603; after each property the
 * node still serves, and its heap has not grown past a bound. `npm test` runs a quick pass
 * (test/fuzz/quick.test.ts), `npm run fuzz` a long one (test/fuzz/long.ts).
 */
import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { TestNode } from '../helpers/node.ts';

const DEV = '0xcd2a3d9f938e13cd947ec05abc7fe734df8dd826';
const U256 = 2n ** 256n;

const hexOf = (n: bigint) => `0x${n.toString(16)}`;
const nested = (depth: number): unknown => (depth === 0 ? '0x1' : [nested(depth - 1)]);

/** Values that have broken JSON-RPC servers, in groups: strings, quantities, numbers, odd objects. */
const EDGE_GROUPS: unknown[][] = [
  ['0x', '0x0', '0x00', '0x-1', '-0x1', '0xg', '0X1', ' 0x1', '0x1 ', '1', '', 'latest', 'pending', 'safe', 'finalized',
    DEV.toUpperCase(), `${DEV}00`, DEV.slice(0, 41), `0x${'ab'.repeat(32)}`, `0x${'ab'.repeat(33)}`, '\u0000', '__proto__', 'toString'],
  [hexOf(U256 - 1n), hexOf(U256), hexOf(2n ** 64n - 1n), hexOf(2n ** 64n), hexOf(2n ** 63n), `0x${'f'.repeat(65)}`,
    `0x${'0'.repeat(1000)}1`, hexOf(2n ** 53n), hexOf(2n ** 32n)],
  [0, -1, 1.5, 1e308, -1e308, 2 ** 53, 2 ** 64, Number.MAX_SAFE_INTEGER, true, false, null],
  [{}, [], [[]], { toString: 1 }, { valueOf: null, toString: 'x' }, JSON.parse('{"__proto__":{"polluted":1}}'),
    { constructor: { prototype: 1 } }, { length: 1e9 }, nested(40), nested(200)],
];
const EDGE_VALUES = EDGE_GROUPS.flat();
/** Each group as likely as the others. */
const edgeValue = fc.oneof(...EDGE_GROUPS.map((group) => fc.constantFrom(...group)));

const quantity = fc.oneof(fc.bigInt({ min: 0n, max: U256 * 4n }).map(hexOf), fc.bigInt({ min: 0n, max: 2n ** 70n }).map(hexOf), edgeValue);
const hexData = fc.uint8Array({ maxLength: 96 }).map((b) => `0x${Buffer.from(b).toString('hex')}`);

/** A transaction or call object whose every field may be hostile. */
const txObject = fc.record({
  from: fc.oneof(fc.constant(DEV), edgeValue), to: fc.oneof(fc.constant(DEV), hexData, edgeValue), gas: quantity, gasLimit: quantity,
  gasPrice: quantity, maxFeePerGas: quantity, value: quantity, nonce: quantity, data: fc.oneof(hexData, edgeValue), input: hexData,
  accessList: fc.oneof(edgeValue, fc.array(fc.record({ address: edgeValue, storageKeys: fc.oneof(edgeValue, fc.array(edgeValue, { maxLength: 3 })) }), { maxLength: 3 })),
}, { requiredKeys: [] });

const filterObject = fc.record({
  fromBlock: quantity, toBlock: quantity, blockHash: fc.oneof(hexData, edgeValue), address: fc.oneof(edgeValue, fc.array(edgeValue, { maxLength: 3 })),
  topics: fc.oneof(edgeValue, fc.array(fc.oneof(edgeValue, fc.array(edgeValue, { maxLength: 3 })), { maxLength: 6 })),
  fromAddress: edgeValue, toAddress: edgeValue, after: quantity, count: quantity,
}, { requiredKeys: [] });

/** Option objects (tracers, filters, selectors) whose known keys hold hostile values. */
const optionObject = fc.record({
  tracer: fc.oneof(fc.constantFrom('callTracer', 'rskTracer'), edgeValue), tracerConfig: fc.oneof(edgeValue, fc.record({ onlyTopCall: edgeValue, withLog: edgeValue }, { requiredKeys: [] })),
  timeout: edgeValue, disableMemory: edgeValue, disableStack: edgeValue, blockHash: edgeValue, blockNumber: edgeValue, requireCanonical: edgeValue,
}, { requiredKeys: [] });

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: edgeValue, weight: 4 }, { arbitrary: quantity, weight: 2 }, { arbitrary: hexData, weight: 2 }, { arbitrary: txObject, weight: 2 },
  { arbitrary: filterObject, weight: 1 }, { arbitrary: optionObject, weight: 1 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
);

/**
 * Well-formed values of every kind a method takes (the hash of a mined transaction and its block among
 * them), so that a hostile value in one position reaches the code behind the positions before it.
 */
const plausibleValue = (txHash: string, blockHash: string) => fc.constantFrom<unknown>(
  DEV, txHash, blockHash, 'latest', 'earliest', 'pending', '0x0', '0x1', '0x5208', 1, '', 'passphrase', true, false, {}, [],
  { from: DEV, to: DEV, value: '0x1' }, { to: DEV, data: '0x' }, { fromBlock: '0x0', toBlock: 'latest' }, { blockHash }, { tracer: 'callTracer' },
  { disableMemory: true }, ['0x1'], [txHash], `0x${'00'.repeat(80)}`, '127.0.0.2',
);

/** Why `reply` is not a JSON-RPC 2.0 response without -32603, or undefined when it is one. */
function badResponse(reply: unknown): string | undefined {
  if (reply === null || typeof reply !== 'object' || Array.isArray(reply)) return 'not a response object';
  const r = reply as Record<string, unknown>;
  if (r.jsonrpc !== '2.0') return 'jsonrpc is not "2.0"';
  if (!('id' in r)) return 'no id';
  if ('result' in r === 'error' in r) return 'not exactly one of result and error';
  if (!('error' in r)) return undefined;
  const e = r.error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code !== 'number' || typeof e.message !== 'string') return 'error without a numeric code and a message';
  if (e.code === -32603) return `-32603 ${e.message}`;
  return undefined;
}

export class FuzzFailure extends Error {}

async function rpcCall(url: string, method: string, params: unknown[]): Promise<unknown> {
  const { text } = await send(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  const reply = JSON.parse(text) as { result?: unknown; error?: { message: string } };
  if (reply.error) throw new FuzzFailure(`${method}: ${reply.error.message}`);
  return reply.result;
}

async function waitForReceipt(url: string, hash: string): Promise<{ blockHash: string }> {
  for (;;) {
    const receipt = await rpcCall(url, 'eth_getTransactionReceipt', [hash]);
    if (receipt) return receipt as { blockHash: string };
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function send(url: string, body: string): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return { status: res.status, text: await res.text() };
}

/** Of `candidates`, up to five that `method` takes (answered without an error about the request or its params). */
async function acceptedParams(url: string, method: string, candidates: unknown[][]): Promise<unknown[][]> {
  const batch = [[], ...candidates].map((params, id) => ({ jsonrpc: '2.0', id, method, params }));
  const { text } = await send(url, JSON.stringify(batch));
  const replies = JSON.parse(text) as { id: number; error?: { code: number } }[];
  const taken = replies.filter((r) => !r.error || ![-32600, -32601, -32602].includes(r.error.code)).map((r) => batch[r.id]!.params);
  return [...new Map(taken.map((p) => [JSON.stringify(p), p])).values()].slice(0, 5);
}

/**
 * Every edge value in every position of each taken params list (and one past its end), and with `keys`
 * under every key of each object in it: the systematic half of the method fuzzing.
 */
function* sweep(seeds: unknown[][], keys: boolean): Generator<unknown[]> {
  for (const seed of seeds) {
    for (let i = 0; i <= seed.length; i++) {
      for (const value of EDGE_VALUES) yield Object.assign(structuredClone(seed), { [i]: value });
      const target = seed[i];
      if (!keys || target === null || typeof target !== 'object' || Array.isArray(target)) continue;
      for (const key of new Set([...Object.keys(target), ...OPTION_KEYS])) {
        for (const value of EDGE_VALUES) {
          const params = structuredClone(seed);
          (params[i] as Record<string, unknown>)[key] = value;
          yield params;
        }
      }
    }
  }
}

/** Keys whose values methods read from option, call and filter objects. */
const OPTION_KEYS = ['tracer', 'tracerConfig', 'timeout', 'from', 'to', 'gas', 'gasPrice', 'value', 'nonce', 'data', 'fromBlock', 'toBlock', 'address', 'topics', 'blockHash'];

/** A taken params list with one position, or one key of an object in it, replaced by a hostile value. */
const mutated = (seeds: unknown[][]) => fc.tuple(fc.constantFrom(...seeds), fc.nat(), fc.nat(), fc.boolean(), hostileValue).map(([seed, at, keyAt, inside, value]) => {
  const params = structuredClone(seed);
  const i = at % (params.length + 1);
  const target = params[i];
  if (inside && target !== null && typeof target === 'object' && !Array.isArray(target)) {
    const keys = [...Object.keys(target), ...OPTION_KEYS];
    (target as Record<string, unknown>)[keys[keyAt % keys.length]!] = value;
  } else {
    params[i] = value;
  }
  return params;
});

/** Posts `body` and checks the reply: one response, a batch of `expected` responses, or nothing (notifications only). */
async function exchange(url: string, body: string, what: string): Promise<void> {
  const { status, text } = await send(url, body);
  const fail = (why: string) => { throw new FuzzFailure(`${what}: ${why}\n  sent: ${body.slice(0, 500)}\n  got ${status}: ${text.slice(0, 500)}`); };
  if (status === 204) return text === '' ? undefined : fail('HTTP 204 with a body');
  let reply: unknown;
  try { reply = JSON.parse(text); } catch { return fail('reply is not JSON'); }
  const replies = Array.isArray(reply) ? reply : [reply];
  if (Array.isArray(reply) && reply.length === 0) fail('an empty batch reply');
  for (const r of replies) {
    const why = badResponse(r);
    if (!why) continue;
    // In a batch, name the request that got the bad reply.
    const sent = Array.isArray(reply) ? (JSON.parse(body) as { id?: unknown }[]).find((q) => q?.id === (r as { id?: unknown }).id) : undefined;
    fail(sent ? `${why} for ${JSON.stringify(sent).slice(0, 500)}` : why);
  }
}

/** A heap figure after a full collection (V8's gc made callable for this). */
function heapAfterGc(): number {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
  return process.memoryUsage().heapUsed;
}

export interface FuzzOptions {
  /** Sweep every edge value under every key of object params too (the long run), not only in every position. */
  readonly sweepKeys: boolean;
  /** Time each method's sweep may take (methods that derive keys take tens of ms a call). */
  readonly sweepBudgetMs: number;
  /** Batches per method (each of up to 20 calls). */
  readonly runsPerMethod: number;
  /** Runs of each of the envelope, batch and raw-body properties. */
  readonly runs: number;
  readonly seed?: number;
  /** Most the heap may grow over the whole run, in bytes. */
  readonly maxHeapGrowth: number;
  readonly log?: (line: string) => void;
}

/** Runs every property against `node`; throws the first failure (shrunk by fast-check). */
export async function fuzzNode(node: TestNode, opts: FuzzOptions): Promise<{ requests: number }> {
  const { url } = node;
  const txHash = await rpcCall(url, 'eth_sendTransaction', [{ from: DEV, to: DEV, value: '0x1' }]) as string;
  const { blockHash } = await waitForReceipt(url, txHash);
  const hostileParams = fc.array(fc.oneof({ arbitrary: plausibleValue(txHash, blockHash), weight: 3 }, { arbitrary: hostileValue, weight: 2 }), { maxLength: 4 });
  const plausibleParams = fc.array(plausibleValue(txHash, blockHash), { maxLength: 3 });
  let requests = 0;
  const params = { seed: opts.seed, endOnFailure: true };
  const alive = async (after: string) => {
    const { text } = await send(url, '{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}');
    if (!text.includes('"result":"0x21"')) throw new FuzzFailure(`the node stopped serving after ${after}: ${text}`);
  };
  const heapBefore = heapAfterGc();

  // Methods that change the node's setup: called like the others, but their hostile values must not stop mining for good.
  for (const name of node.node.methodNames) {
    const seeds = await acceptedParams(url, name, fc.sample(plausibleParams, { numRuns: 80, seed: opts.seed }));
    const swept = [...sweep([[], ...seeds], opts.sweepKeys)];
    const sweepEndMs = Date.now() + opts.sweepBudgetMs;
    for (let at = 0; at < swept.length && Date.now() < sweepEndMs; at += 100) {
      requests += Math.min(100, swept.length - at);
      await exchange(url, JSON.stringify(swept.slice(at, at + 100).map((p, id) => ({ jsonrpc: '2.0', id, method: name, params: p }))), `${name} (sweep)`);
    }
    const call = seeds.length ? fc.oneof(hostileParams, { arbitrary: mutated(seeds), weight: 3 }) : hostileParams;
    await fc.assert(fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 20 }), async (calls) => {
      requests += calls.length;
      const body = JSON.stringify(calls.map((p, id) => ({ jsonrpc: '2.0', id, method: name, params: p })));
      await exchange(url, body, name);
    }), { ...params, numRuns: opts.runsPerMethod });
    await alive(name);
  }
  opts.log?.(`methods: ${node.node.methodNames.length}, each swept and ${opts.runsPerMethod} random batches; ${requests} requests`);

  const id = fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), edgeValue, fc.bigInt({ min: 2n ** 53n, max: 2n ** 80n }));
  const envelope = fc.record({
    jsonrpc: fc.oneof(fc.constant('2.0'), edgeValue), id, method: fc.oneof(fc.constantFrom(...node.node.methodNames), edgeValue, fc.string({ maxLength: 20 })),
    params: fc.oneof(hostileParams, edgeValue),
  }, { requiredKeys: [] });
  /** JSON text of an envelope: ids past 2^53 written as bare numbers. */
  const text = (e: Record<string, unknown>) => JSON.stringify(e, (_, v) => (typeof v === 'bigint' ? `@big${v}` : v)).replace(/"@big(\d+)"/g, '$1');

  await fc.assert(fc.asyncProperty(fc.oneof(envelope, fc.jsonValue({ maxDepth: 4 })), async (e) => {
    requests++;
    await exchange(url, typeof e === 'object' && e !== null && !Array.isArray(e) ? text(e as Record<string, unknown>) : JSON.stringify(e), 'envelope');
  }), { ...params, numRuns: opts.runs });
  await alive('the envelopes');

  await fc.assert(fc.asyncProperty(fc.array(fc.oneof(envelope, hostileValue), { maxLength: 110 }), async (batch) => {
    requests += Math.max(batch.length, 1);
    await exchange(url, `[${batch.map((e) => (typeof e === 'object' && e !== null && !Array.isArray(e) ? text(e as Record<string, unknown>) : JSON.stringify(e))).join(',')}]`, 'batch');
  }), { ...params, numRuns: opts.runs });
  await alive('the batches');

  const rawBody = fc.oneof(fc.string({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')),
    envelope.map((e) => text(e).slice(0, -1)), fc.constantFrom('{', '[', '[]', '{}', 'null', '"x"', '1e999', '[1,]', '{"id":1,"id":2}'));
  await fc.assert(fc.asyncProperty(rawBody, async (body) => {
    requests++;
    await exchange(url, body, 'raw body');
  }), { ...params, numRuns: opts.runs });
  await alive('the raw bodies');

  const deep = `{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  await exchange(url, deep, 'params nested 100,000 deep');
  await alive('params nested 100,000 deep');

  const growth = heapAfterGc() - heapBefore;
  opts.log?.(`${requests} requests; heap growth ${(growth / 2 ** 20).toFixed(1)} MB`);
  if (growth > opts.maxHeapGrowth) throw new FuzzFailure(`the heap grew by ${(growth / 2 ** 20).toFixed(1)} MB (bound ${(opts.maxHeapGrowth / 2 ** 20).toFixed(0)} MB)`);
  return { requests };
}

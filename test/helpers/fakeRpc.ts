/**
 * The node's method table (buildMethods: every namespace, the switches, the unsupported groups, the
 * worker routing) behind a Dispatcher, on fake dependencies: no node, no sockets. A test fakes what
 * the methods it calls use; any other dependency throws when touched, naming itself, so a method
 * that reaches further than its test expects fails (-32603) instead of passing by chance.
 */
import * as assert from 'uvu/assert';
import type { ActorRef, Protocol } from '../../src/actors/kernel/index.ts';
import type { RpcDeps } from '../../src/rpc/deps.ts';
import { Dispatcher, type JsonRpcResponse } from '../../src/rpc/dispatch.ts';
import { buildMethods } from '../../src/rpc/modules/index.ts';
import { defaultSwitches, type RpcSwitches } from '../../src/rpc/switches.ts';

type Answers<P extends Protocol> = {
  [K in keyof P['ask']]?: (req: P['ask'][K]['req']) => P['ask'][K]['res'] | Promise<P['ask'][K]['res']>;
};

export interface FakeRef<P extends Protocol> extends ActorRef<P> {
  /** Every ask, in order: its type and request. */
  readonly asked: { type: string; req: unknown }[];
}

/** An actor reference that answers the asks it has an answer for and refuses the others. */
export function fakeRef<P extends Protocol>(name: string, answers: Answers<P> = {}): FakeRef<P> {
  const asked: { type: string; req: unknown }[] = [];
  return {
    name, asked,
    tell: () => { throw new Error(`the fake ${name} takes no tells`); },
    async ask(type, req) {
      asked.push({ type, req });
      const answer = answers[type] as ((r: unknown) => unknown) | undefined;
      if (!answer) throw new Error(`the fake ${name} has no answer for ${type}`);
      return answer(req) as never;
    },
  };
}

/** A dependency the test did not fake: touching it throws. */
const unfaked = (name: string) => new Proxy({}, {
  get: (_, prop) => {
    if (prop === 'then') return undefined; // not a promise
    throw new Error(`deps.${name} is not faked in this test (its ${String(prop)} was used)`);
  },
});

const REQUIRED = ['reader', 'chain', 'txpool', 'filters', 'miner', 'workers', 'pending', 'peers', 'sync'] as const;

export interface FakeRpc {
  /** The answer to one request: a result, or an error. */
  send(method: string, params?: unknown[]): Promise<JsonRpcResponse>;
  /** The result of a call that must succeed. */
  result<T = any>(method: string, params?: unknown[]): Promise<T>;
  /** The error of a call that must fail. */
  error(method: string, params?: unknown[]): Promise<{ code: number; message: string; data?: string }>;
}

/** The dispatcher over the whole method table with `deps` (a regtest node's switches unless given). */
export function fakeRpc(deps: Partial<RpcDeps> = {}, switches: RpcSwitches = defaultSwitches('regtest')): FakeRpc {
  const full = {
    gasCap: 50_000_000n, clientVersion: 'mmnode/test',
    ...Object.fromEntries(REQUIRED.map((name) => [name, unfaked(name)])),
    ...deps,
  } as RpcDeps;
  const dispatcher = new Dispatcher(buildMethods(full, switches));
  let id = 0;
  const send = async (method: string, params: unknown[] = []) =>
    (await dispatcher.handle({ jsonrpc: '2.0', id: ++id, method, params })) as JsonRpcResponse;
  return {
    send,
    async result(method, params) {
      const r = await send(method, params);
      assert.not.ok(r.error, `${method}: ${r.error?.code} ${r.error?.message}`);
      return r.result as never;
    },
    async error(method, params) {
      const r = await send(method, params);
      if (!r.error) assert.unreachable(`${method} answered a result, expected an error`);
      return r.error!;
    },
  };
}

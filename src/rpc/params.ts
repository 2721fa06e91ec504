/**
 * Parameter parsers: each turns one untrusted JSON value into a typed value or throws -32602 with
 * a message naming the parameter and what was expected.
 */
import type { Hex } from '../chain/codec/bytes.ts';
import { fromHex } from '../chain/codec/bytes.ts';
import { invalidParams } from './errors.ts';
import type { BlockTag } from '../chain/blockTags.ts';

export type Param<T> = (raw: unknown, name: string) => T;

const show = (raw: unknown) => {
  const s = JSON.stringify(raw);
  return s === undefined ? 'nothing' : s.length > 80 ? `${s.slice(0, 77)}...` : s;
};
/** Throws -32602 naming the parameter, what was expected and what came (or that it is missing). */
export const fail = (name: string, expected: string, raw: unknown): never => {
  if (raw === undefined) throw invalidParams(`missing argument ${name}: expected ${expected}`);
  throw invalidParams(`invalid argument ${name}: expected ${expected}, got ${show(raw)}`);
};

const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;
const HEX_QUANTITY = /^0x(0|[1-9a-fA-F][0-9a-fA-F]*)$/;

export const bytesOfLength = (length: number, what: string): Param<Uint8Array> => (raw, name) => {
  if (typeof raw !== 'string' || !HEX_DATA.test(raw) || raw.length !== 2 + 2 * length) {
    return fail(name, `${what} (0x followed by ${2 * length} hex digits)`, raw);
  }
  return fromHex(raw);
};

export const address = bytesOfLength(20, 'a 20-byte address');
export const hash32 = bytesOfLength(32, 'a 32-byte hash');

export const data: Param<Uint8Array> = (raw, name) => {
  if (typeof raw !== 'string' || !HEX_DATA.test(raw)) return fail(name, 'hex data (0x followed by an even number of hex digits)', raw);
  return fromHex(raw);
};

/** QUANTITY: 0x-prefixed hex. Leading zeros are tolerated, as many clients send them. */
export const quantity: Param<bigint> = (raw, name) => {
  if (typeof raw !== 'string' || !/^0x[0-9a-fA-F]{1,64}$/.test(raw)) return fail(name, 'a hex quantity such as 0x1a', raw);
  return BigInt(raw);
};

/** QUANTITY, also accepting a JSON number (some tools send those for indexes). */
export const index: Param<number> = (raw, name) => {
  if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) return raw;
  const n = quantity(raw, name);
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) return fail(name, 'an index below 2^53', raw);
  return Number(n);
};

export const bool: Param<boolean> = (raw, name) => (typeof raw === 'boolean' ? raw : fail(name, 'true or false', raw));
export const text: Param<string> = (raw, name) => (typeof raw === 'string' ? raw : fail(name, 'a string', raw));

export type BlockSelector =
  | { kind: 'tag'; tag: BlockTag }
  | { kind: 'number'; number: bigint }
  | { kind: 'hash'; hash: Uint8Array; requireCanonical: boolean };

const TAGS = new Set(['latest', 'earliest', 'pending', 'safe', 'finalized']);
const SELECTOR_EXPECTED = "a block number (hex), 'latest', 'earliest', 'pending', 'safe', 'finalized'";

/** Block number or tag (docs/rpc-compatibility.md "Block tags"). */
export const blockNumberOrTag: Param<BlockSelector> = (raw, name) => {
  if (typeof raw === 'string' && TAGS.has(raw)) return { kind: 'tag', tag: raw as BlockTag };
  if (typeof raw === 'string' && HEX_QUANTITY.test(raw.length > 3 ? raw.replace(/^0x0+(?=.)/, '0x') : raw)) return { kind: 'number', number: BigInt(raw) };
  return fail(name, SELECTOR_EXPECTED, raw);
};

/** Any block selector form: number, tag, block hash, or {blockHash[, requireCanonical]} / {blockNumber} (EIP-1898). */
export const blockSelector: Param<BlockSelector> = (raw, name) => {
  if (typeof raw === 'string' && raw.length === 66) return { kind: 'hash', hash: hash32(raw, name), requireCanonical: false };
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    const o = raw as Record<string, unknown>;
    if ('blockHash' in o) {
      const requireCanonical = o.requireCanonical === undefined ? false : bool(o.requireCanonical, `${name}.requireCanonical`);
      return { kind: 'hash', hash: hash32(o.blockHash, `${name}.blockHash`), requireCanonical };
    }
    if ('blockNumber' in o) return blockNumberOrTag(o.blockNumber, `${name}.blockNumber`);
    return fail(name, `${SELECTOR_EXPECTED}, a block hash, {blockHash} or {blockNumber}`, raw);
  }
  if (typeof raw === 'string') return blockNumberOrTag(raw, name);
  return fail(name, `${SELECTOR_EXPECTED}, a block hash, {blockHash} or {blockNumber}`, raw);
};

export const optional = <T>(parser: Param<T>, fallback: T): Param<T> => (raw, name) =>
  raw === undefined || raw === null ? fallback : parser(raw, name);

export const LATEST: BlockSelector = { kind: 'tag', tag: 'latest' };

/** A transaction-like object (eth_call, eth_estimateGas, eth_sendTransaction). */
export interface TxArgs {
  from?: Uint8Array;
  to?: Uint8Array;
  gas?: bigint;
  gasPrice?: bigint;
  value?: bigint;
  data?: Uint8Array;
  nonce?: bigint;
  accessList?: [Uint8Array, Uint8Array[]][];
}

/** EIP-2930 access list: [{ address, storageKeys: [hash32…] }…]. */
export const accessList: Param<[Uint8Array, Uint8Array[]][]> = (raw, name) => {
  if (!Array.isArray(raw)) return fail(name, 'an access list (array of {address, storageKeys})', raw);
  return raw.map((item, i) => {
    if (item === null || typeof item !== 'object') return fail(`${name}[${i}]`, '{address, storageKeys}', item);
    const { address: a, storageKeys } = item as Record<string, unknown>;
    const keys = storageKeys === undefined ? [] : storageKeys;
    if (!Array.isArray(keys)) return fail(`${name}[${i}].storageKeys`, 'an array of 32-byte keys', keys);
    return [address(a, `${name}[${i}].address`), keys.map((k, j) => hash32(k, `${name}[${i}].storageKeys[${j}]`))];
  });
};

export const txArgs: Param<TxArgs> = (raw, name) => {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return fail(name, 'a transaction object', raw);
  // Fields this node does not use (web3.js adds `chain`, `hardfork`, `networkId`…) are ignored, as other nodes do.
  const o = raw as Record<string, unknown>;
  const opt = <T>(key: string, p: Param<T>) => (o[key] === undefined || o[key] === null ? undefined : p(o[key], `${name}.${key}`));
  const input = opt('input', data);
  const dataField = opt('data', data);
  if (input && dataField && (input.length !== dataField.length || input.some((b, i) => b !== dataField[i]))) {
    throw invalidParams(`invalid argument ${name}: 'data' and 'input' are both given and differ`);
  }
  return {
    from: opt('from', address), to: opt('to', address), gas: opt('gas', quantity) ?? opt('gasLimit', quantity),
    gasPrice: opt('gasPrice', quantity) ?? opt('maxFeePerGas', quantity), value: opt('value', quantity),
    data: input ?? dataField, nonce: opt('nonce', quantity), accessList: opt('accessList', accessList),
  };
};

export const hexOf = (b: string): Hex => b as Hex;

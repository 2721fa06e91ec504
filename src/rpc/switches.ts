/**
 * RPC module and method switches, as the reference's `rpc.modules` (README "Module switches"): a method
 * `m` is callable iff its module (the name before `_`) is enabled, `m` is not in the module's
 * disabled list, and the module's enabled list is empty or holds `m`. A module missing from the
 * configuration is off. Switched-off methods answer -32601 "the method m does not exist/is not
 * available", which an unknown method ("method not found") never does.
 */
import type { NetworkName } from '../chain/execution/networks.ts';

/** The modules this node has (or reserves) names for. */
export const MODULES = ['web3', 'net', 'eth', 'rpc', 'chain', 'txpool', 'debug', 'trace', 'evm', 'personal', 'mnr', 'sco'] as const;
export type ModuleName = (typeof MODULES)[number];

export interface ModuleSwitch {
  readonly enabled: boolean;
  /** When not empty, the only methods of the module that are on. */
  readonly enabledMethods: readonly string[];
  readonly disabledMethods: readonly string[];
}

export type RpcSwitches = Readonly<Record<ModuleName, ModuleSwitch>>;

/** Off outside regtest unless configured: they hold keys, control mining, or cost a lot to serve. */
const GUARDED = new Set<ModuleName>(['personal', 'evm', 'debug', 'trace', 'sco', 'mnr']);

/** What a hosted endpoint serves unless the operator names more (docs/hardening.md "Hosted modules"). */
const HOSTED_PUBLIC = new Set<ModuleName>(['eth', 'net', 'web3', 'rpc']);
/** eth methods that sign with the node's keys: a hosted endpoint holds none. */
const WALLET_METHODS = ['eth_sign', 'eth_sendTransaction', 'eth_sendTransactionSync'];

/**
 * Regtest enables every module; testnet and mainnet leave the guarded ones off; a hosted endpoint, on
 * any network, serves only the public modules and eth without its wallet methods.
 */
export function defaultSwitches(network: NetworkName, hosted = false): RpcSwitches {
  const entries = MODULES.map((m) => {
    if (hosted) return [m, { enabled: HOSTED_PUBLIC.has(m), enabledMethods: [], disabledMethods: m === 'eth' ? WALLET_METHODS : [] }];
    return [m, { enabled: network === 'regtest' || !GUARDED.has(m), enabledMethods: [], disabledMethods: [] }];
  });
  return Object.fromEntries(entries) as RpcSwitches;
}

/** Hardhat's and Anvil's names of the developer controls belong to the evm module. */
const MODULE_ALIASES: Record<string, ModuleName> = { hardhat: 'evm', anvil: 'evm' };
export const moduleOf = (methodName: string): string => {
  const prefix = methodName.slice(0, Math.max(methodName.indexOf('_'), 0));
  return MODULE_ALIASES[prefix] ?? prefix;
};

export function isCallable(switches: RpcSwitches, methodName: string): boolean {
  const s = switches[moduleOf(methodName) as ModuleName] as ModuleSwitch | undefined;
  if (!s?.enabled || s.disabledMethods.includes(methodName)) return false;
  return s.enabledMethods.length === 0 || s.enabledMethods.includes(methodName);
}

/** rpc_modules: the enabled modules that serve at least one method here, each with its version. */
export function enabledModules(methodNames: readonly string[], switches: RpcSwitches): Record<string, string> {
  const on = new Set(methodNames.filter((m) => isCallable(switches, m)).map(moduleOf));
  return Object.fromEntries(MODULES.filter((m) => on.has(m)).map((m) => [m, '1.0']));
}

/** What an operator may change, in the order it applies: file, then module list, then method lists. */
export interface SwitchOverrides {
  /** A parsed JSON configuration: `{"modules": {"<name>": {"enabled": bool, "methods": {"enabled": [...], "disabled": [...]}}}}`. */
  readonly file?: unknown;
  /** Exactly the modules that are on. */
  readonly modules?: readonly string[];
  /** Methods switched on, each alone when its module is otherwise off. */
  readonly enableMethods?: readonly string[];
  readonly disableMethods?: readonly string[];
}

export class SwitchError extends Error {}

/**
 * The network's (or a hosted endpoint's) defaults with the operator's overrides applied; SwitchError names
 * what is wrong. (Naming personal for a hosted endpoint is refused by the configuration: src/config/index.ts.)
 */
export function resolveSwitches(network: NetworkName, overrides: SwitchOverrides, hosted = false): RpcSwitches {
  const out: Record<ModuleName, ModuleSwitch> = { ...defaultSwitches(network, hosted) };
  if (overrides.file !== undefined) Object.assign(out, switchesFromFile(overrides.file));
  if (overrides.modules) {
    const on = new Set(overrides.modules.map((m) => moduleName(m, '--rpc-modules')));
    for (const m of MODULES) out[m] = { ...out[m], enabled: on.has(m) };
  }
  for (const name of overrides.enableMethods ?? []) {
    const m = moduleOfMethod(name, '--rpc-enable-methods');
    const s = out[m];
    const disabledMethods = s.disabledMethods.filter((d) => d !== name);
    if (!s.enabled) out[m] = { enabled: true, enabledMethods: [name], disabledMethods };
    else out[m] = { ...s, enabledMethods: s.enabledMethods.length ? [...s.enabledMethods, name] : [], disabledMethods };
  }
  for (const name of overrides.disableMethods ?? []) {
    const m = moduleOfMethod(name, '--rpc-disable-methods');
    out[m] = { ...out[m], disabledMethods: [...out[m].disabledMethods, name] };
  }
  return out;
}

function moduleName(name: string, where: string): ModuleName {
  if (!(MODULES as readonly string[]).includes(name)) throw new SwitchError(`${where}: unknown module "${name}" (modules: ${MODULES.join(', ')})`);
  return name as ModuleName;
}

function moduleOfMethod(name: string, where: string): ModuleName {
  if (!/^[a-z0-9]+_[A-Za-z0-9]+$/.test(name)) throw new SwitchError(`${where}: "${name}" is not a method name such as eth_sign`);
  return moduleName(moduleOf(name), `${where} ${name}`);
}

function switchesFromFile(raw: unknown): Partial<Record<ModuleName, ModuleSwitch>> {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObject(raw) || !isObject(raw.modules)) throw new SwitchError('RPC configuration: expected {"modules": {"<module>": {"enabled": true|false, "methods": {...}}}}');
  const out: Partial<Record<ModuleName, ModuleSwitch>> = {};
  for (const [name, entry] of Object.entries(raw.modules)) {
    const where = `RPC configuration modules.${name}`;
    const m = moduleName(name, 'RPC configuration');
    if (!isObject(entry) || typeof entry.enabled !== 'boolean') throw new SwitchError(`${where}: expected {"enabled": true|false, "methods": {"enabled": [...], "disabled": [...]}}`);
    const methods = entry.methods ?? {};
    if (!isObject(methods)) throw new SwitchError(`${where}.methods: expected {"enabled": [...], "disabled": [...]}`);
    const list = (key: 'enabled' | 'disabled'): string[] => {
      const v = methods[key] ?? [];
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string' || moduleOf(x) !== m)) {
        throw new SwitchError(`${where}.methods.${key}: expected an array of ${m}_* method names`);
      }
      return v as string[];
    };
    out[m] = { enabled: entry.enabled, enabledMethods: list('enabled'), disabledMethods: list('disabled') };
  }
  return out;
}

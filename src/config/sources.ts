/**
 * Where option values come from, each read into a record keyed by option name: the TOML file, then
 * `MMNODE_<OPTION>` environment variables, then flags (later ones win). Names not in the option
 * table are refused here, with where they were found.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parse as parseToml } from 'smol-toml';
import { ConfigError } from './error.ts';
import { isSwitch, OPTIONS, isFlagOnly } from './options.ts';

export type RawOptions = Record<string, unknown>;

const ENV_PREFIX = 'MMNODE_';
export const envName = (option: string) => ENV_PREFIX + option.toUpperCase().replaceAll('-', '_');

export function fromFlags(argv: string[]): RawOptions {
  const flags = Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, { type: isSwitch(name) ? 'boolean' as const : 'string' as const }]));
  try {
    return stripUndefined(parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false }).values);
  } catch (err) {
    // parseArgs says "Unknown option '--x'" or "Option '--x <value>' argument missing": already names the flag.
    throw new ConfigError(`${(err as Error).message.split('\n')[0]} (see --help)`);
  }
}

export function fromEnv(env: NodeJS.ProcessEnv): RawOptions {
  const out: RawOptions = {};
  for (const [key, value] of Object.entries(env)) {
    if (!key.startsWith(ENV_PREFIX) || value === undefined) continue;
    const name = key.slice(ENV_PREFIX.length).toLowerCase().replaceAll('_', '-');
    if (name === 'config') continue; // MMNODE_CONFIG names the file, read before the variables
    if (!(name in OPTIONS) || isFlagOnly(name)) throw new ConfigError(`${key}: unknown option (variables are MMNODE_ and an option's name, e.g. MMNODE_RPC_PORT; see --help)`);
    out[name] = value;
  }
  return out;
}

export function fromFile(path: string): RawOptions {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`--config: cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  let table: RawOptions;
  try {
    table = parseToml(text);
  } catch (err) {
    throw new ConfigError(`--config: ${path} is not valid TOML: ${(err as Error).message.split('\n')[0]}`);
  }
  for (const key of Object.keys(table)) {
    if (!(key in OPTIONS) || isFlagOnly(key)) throw new ConfigError(`${key} in ${path}: unknown option (keys are named as the flags, e.g. rpc-port = 4444; see --help)`);
  }
  return table;
}

const stripUndefined = (o: RawOptions): RawOptions => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

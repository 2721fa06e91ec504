/**
 * Start-up failures an operator can fix, each turned into one line naming the problem and the fix
 * (docs/operations.md "Start-up errors"); main.ts prints it and exits non-zero.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export class StartupError extends Error {}

/** Creates the data dir if needed and proves it writable (a read-only or virtual file system such as /proc fails here). */
export function prepareDataDir(dir: string): void {
  const probe = join(dir, '.write-test');
  try {
    makeDirs(dir);
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (err) {
    throw new StartupError(`data dir ${dir} cannot be created or written (${codeOf(err) ?? (err as Error).message}): choose another with --data-dir or fix its permissions`, { cause: err });
  }
}

/** mkdir -p one level at a time: Node's recursive mkdirSync never returns for a path under /proc (it retries ENOENT forever). */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  for (let d = resolve(dir); !existsSync(d); d = dirname(d)) missing.unshift(d);
  for (const d of missing) mkdirSync(d);
}

/** The store failed to open or to read its head. */
export function storeError(err: unknown, dir: string): Error {
  const codes = causes(err).map(codeOf);
  if (codes.includes('LEVEL_LOCKED')) {
    return new StartupError(`data dir ${dir} is in use by another running node: stop that node, or give this one another --data-dir`, { cause: err });
  }
  if (codes.includes('LEVEL_CORRUPTION') || causes(err).some((e) => /corrupt/i.test((e as Error)?.message ?? ''))) {
    return new StartupError(`the store in ${dir} is corrupt: restore it from a backup, or move it away and let the node sync again`, { cause: err });
  }
  return err as Error;
}

/** A listen that failed because the port is taken; `flag` is the option choosing it. */
export function portError(err: unknown, what: string, flag: string, host: string, port: number): Error {
  if (!causes(err).some((e) => codeOf(e) === 'EADDRINUSE' || /EADDRINUSE/.test((e as Error)?.message ?? ''))) return err as Error;
  return new StartupError(`${what} port ${host}:${port} is already in use by another program: stop it, or choose another port with ${flag}`, { cause: err });
}

const codeOf = (err: unknown): string | undefined => (err as { code?: unknown } | undefined)?.code as string | undefined;

/** The error and its chain of causes (level and libp2p wrap the system error). */
function causes(err: unknown): unknown[] {
  const out: unknown[] = [];
  for (let e = err; e !== undefined && e !== null && out.length < 8; e = (e as { cause?: unknown }).cause) out.push(e);
  return out;
}

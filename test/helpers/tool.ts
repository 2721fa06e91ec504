/** Runs a real command-line tool (forge, cast, hardhat) to completion; a failure carries its whole output. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

export async function runTool(file: string, args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<string> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, {
      cwd: opts.cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...opts.env }, maxBuffer: 16 << 20, timeout: 180_000,
    });
    return stdout + stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

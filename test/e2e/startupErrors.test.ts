/**
 * Start-up errors an operator can fix: each is one line naming the problem and the fix, a non-zero
 * exit, and no stack trace (unless --log-level debug). Real node processes, real sockets and LevelDB.
 */
import { spawn } from 'node:child_process';
import { writeFileSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../../testnet/bundle.ts';
import { nodeProcessArgs } from '../../testnet/launch.ts';
import { startChildNode, startTestNode, tempDir } from '../helpers/node.ts';

const Startup = suite('start-up errors');

/** Runs a node to its exit (killed after 30 s: it must not hang), with what it printed. */
function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, nodeProcessArgs(['--rpc-port', '0', '--p2p-port', '0', '--quiet', ...args]), { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); }));
}

async function refused(args: string[], problem: RegExp, fix: RegExp): Promise<void> {
  const { code, stdout, stderr } = await runToExit(args);
  assert.is(code, 1, `exit code, output:\n${stdout}${stderr}`);
  const lines = stderr.trim().split('\n');
  assert.is(lines.length, 1, stderr);
  assert.match(lines[0]!, problem);
  assert.match(lines[0]!, fix);
  assert.not.match(stderr, /\n\s+at /);
  assert.not.match(stdout, /"ready":true/);
}

const occupy = async (): Promise<Server> => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return server;
};
const portOf = (s: Server) => (s.address() as { port: number }).port;

Startup('a port in use: RPC, P2P or metrics', async () => {
  const taken = await occupy();
  const port = String(portOf(taken));
  try {
    await refused(['--data-dir', tempDir(), '--rpc-port', port], new RegExp(`RPC port 127.0.0.1:${port} is already in use`), /--rpc-port/);
    await refused(['--data-dir', tempDir(), '--p2p-port', port], new RegExp(`P2P port 127.0.0.1:${port} is already in use`), /--p2p-port/);
    await refused(['--data-dir', tempDir(), '--metrics-port', port], new RegExp(`metrics port 127.0.0.1:${port} is already in use`), /--metrics-port/);
  } finally {
    taken.close();
  }
});

Startup('a data dir that cannot be created or written', async () => {
  // /proc takes no new directories (and Node's recursive mkdir never returns there).
  await refused(['--data-dir', '/proc/mmnode/data'], /data dir \/proc\/mmnode\/data cannot be created or written/, /--data-dir/);
  const file = join(tempDir(), 'a-file');
  writeFileSync(file, '');
  await refused(['--data-dir', join(file, 'data')], /cannot be created or written \(ENOTDIR\)/, /--data-dir/);
});

Startup('a data dir held by another running node', async () => {
  const running = await startTestNode();
  try {
    await refused(['--data-dir', running.config.dataDir], /is in use by another running node/, /stop that node, or give this one another --data-dir/);
  } finally {
    await running.stop();
  }
});

Startup('a corrupt store; the stack trace only with --log-level debug', async () => {
  const dataDir = tempDir();
  const node = await startChildNode(dataDir);
  node.child.kill('SIGTERM');
  await node.exited;
  const manifest = readdirSync(dataDir).find((f) => f.startsWith('MANIFEST-'))!;
  writeFileSync(join(dataDir, manifest), 'not a LevelDB manifest at all, but garbage');
  await refused(['--data-dir', dataDir], /the store in .* is corrupt/, /restore it from a backup/);
  const debug = await runToExit(['--data-dir', dataDir, '--log-level', 'debug', '--log-format', 'json']);
  assert.is(debug.code, 1);
  assert.match(debug.stdout + debug.stderr, /"stack":"Error: the store in .* is corrupt.*\\n\s+at /);
});

Startup.run();

/**
 * Runs every `*.test.ts` under test/ (or the folders given as arguments) with uvu, one file per
 * process so a crashing suite cannot hide the others. uvu 0.5.6 exits 0 without a word when a
 * `before` hook throws, so we read its totals and fail on any shortfall. A failed file's last lines
 * (uvu's assertion and stack) are printed again at the end, where a log cut to its tail still shows
 * them. The last line is `N passed, N failed`, the line CI reads.
 */
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const targets = process.argv.slice(2).length ? process.argv.slice(2) : ['test'];

function findTests(dir: string): string[] {
  if (statSync(dir).isFile()) return dir.endsWith('.test.ts') ? [dir] : [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => findTests(join(dir, name)));
}

interface FileResult { file: string; total: number; passed: number; skipped: number; code: number | null; output: string }

function runFile(file: string): Promise<FileResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'node_modules/uvu/bin.js'), '.', file], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let output = '';
    child.stdout.on('data', (d) => { output += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { output += d; process.stderr.write(d); });
    child.on('close', (code) => {
      const num = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);
      resolve({ file, total: num('Total'), passed: num('Passed'), skipped: num('Skipped'), code, output });
    });
  });
}

const files = targets.flatMap((t) => findTests(join(root, t)));
let passed = 0;
let failed = 0;
const failures: FileResult[] = [];
const FAILED_TAIL_LINES = 40;
for (const file of files) {
  const name = relative(root, file);
  console.log(`\n# ${name}`);
  const r = await runFile(name);
  passed += r.passed;
  const missing = r.total - r.passed - r.skipped;
  if (r.code !== 0 || r.total === 0 || missing > 0) {
    failed += Math.max(missing, 1);
    failures.push(r);
  }
}
for (const r of failures) console.log(`\n--- ${relative(root, r.file)}, its last ${FAILED_TAIL_LINES} lines ---\n${r.output.trimEnd().split('\n').slice(-FAILED_TAIL_LINES).join('\n')}`);
if (failures.length) console.log(`\nFailures:\n  ${failures.map((r) => `${relative(root, r.file)}: exit ${r.code}, ${r.passed}/${r.total} passed`).join('\n  ')}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || files.length === 0 ? 1 : 0);

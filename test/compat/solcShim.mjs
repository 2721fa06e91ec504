/**
 * A `solc` command line over the npm `solc` package (solc-js), for tools that run a native compiler:
 * `--version` and `--standard-json` (input on stdin, sources inline), which is all forge asks of it.
 * Other flags forge passes (--base-path, --allow-paths, --include-path) only matter for reading
 * imports from disk; sources here arrive inline, so imports are read relative to --base-path.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import solc from 'solc';

const args = process.argv.slice(2);
if (args.includes('--version')) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
} else if (args.includes('--standard-json')) {
  const basePath = args[args.indexOf('--base-path') + 1] ?? '.';
  const findImports = (path) => {
    try {
      return { contents: readFileSync(resolve(args.includes('--base-path') ? basePath : '.', path), 'utf8') };
    } catch (err) {
      return { error: err.message };
    }
  };
  process.stdout.write(solc.compile(readFileSync(0, 'utf8'), { import: findImports }));
} else {
  process.stderr.write(`solcShim: only --version and --standard-json are supported, got ${args.join(' ')}\n`);
  process.exit(1);
}

/** Compiles a fixture with the `solc` npm package and its default settings (current EVM version). */
import { readFileSync } from 'node:fs';
import solc from 'solc';

export interface Compiled { abi: any[]; bytecode: `0x${string}`; deployedBytecode: `0x${string}` }

const cache = new Map<string, Compiled>();

export function compileFixture(file: string, contract: string): Compiled {
  const key = `${file}:${contract}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const source = readFileSync(new URL(`../fixtures/${file}`, import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: { outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const c = output.contracts[file][contract];
  const compiled = {
    abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` as `0x${string}`, deployedBytecode: `0x${c.evm.deployedBytecode.object}` as `0x${string}`,
  };
  cache.set(key, compiled);
  return compiled;
}

/** A fixture contract as a Hardhat 3 artifact (what Ignition's `m.contract(name, artifact)` takes). */
export function compileFixtureArtifact(file: string, contract: string) {
  const { abi, bytecode, deployedBytecode } = compileFixture(file, contract);
  return {
    _format: 'hh3-artifact-1', contractName: contract, sourceName: `contracts/${file}`, abi, bytecode, deployedBytecode,
    linkReferences: {}, deployedLinkReferences: {},
  };
}

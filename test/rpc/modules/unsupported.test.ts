/**
 * Groups unsupported by design: compilers, shh_*, db_* each answer -32601 saying why,
 * with or without params, whatever the module switches, and the node keeps serving.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveSwitches } from '../../../src/rpc/switches.ts';
import { startTestNode, type TestNode } from '../../helpers/node.ts';
import { rpc, rpcError } from '../../helpers/rpc.ts';

const Unsupported = suite('unsupported groups');
const nodes: TestNode[] = [];
Unsupported.after(async () => { for (const n of nodes.reverse()) await n.stop(); });

const GROUPS: [RegExp, string[]][] = [
  [/compilers are not included in this node, for security reasons/, ['eth_getCompilers', 'eth_compileLLL', 'eth_compileSolidity', 'eth_compileSerpent']],
  [/whisper message protocol \(shh\) is not supported/, ['shh_post', 'shh_version', 'shh_newIdentity', 'shh_hasIdentity', 'shh_newGroup',
    'shh_addToGroup', 'shh_newFilter', 'shh_uninstallFilter', 'shh_getFilterChanges', 'shh_getMessages']],
  [/db_\* methods are deprecated/, ['db_putString', 'db_getString', 'db_putHex', 'db_getHex']],
];

Unsupported('each method answers -32601 naming itself and the reason; the node stays healthy', async () => {
  const n = await startTestNode();
  nodes.push(n);
  for (const [why, methods] of GROUPS) {
    for (const method of methods) {
      for (const params of [[], ['contract C {}'], ['db', 'key', 'value']]) {
        const err = await rpcError(n.url, method, params);
        assert.is(err.code, -32601, method);
        assert.match(err.message, `the method ${method} does not exist/is not available: `);
        assert.match(err.message, why);
      }
    }
  }
  assert.match(await rpc(n.url, 'eth_blockNumber'), /^0x/);
});

Unsupported('switches do not hide the reason', async () => {
  const n = await startTestNode({ rpcModules: resolveSwitches('regtest', { modules: ['net'] }) });
  nodes.push(n);
  assert.match((await rpcError(n.url, 'eth_compileSolidity', ['contract C {}'])).message, /compilers are not included/);
  assert.match((await rpcError(n.url, 'eth_chainId')).message, /eth module is disabled/);
});

Unsupported.run();

/**
 * Groups unsupported by design, through the node's method table on fake dependencies: compilers,
 * shh_*, db_* each answer -32601 saying why, with or without params, whatever the module switches,
 * and touch nothing (any dependency they used would fail the call).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveSwitches } from '../../../src/rpc/switches.ts';
import { fakeRpc } from '../../helpers/fakeRpc.ts';

const Unsupported = suite('unsupported groups');

const GROUPS: [RegExp, string[]][] = [
  [/compilers are not included in this node, for security reasons/, ['eth_getCompilers', 'eth_compileLLL', 'eth_compileSolidity', 'eth_compileSerpent']],
  [/whisper message protocol \(shh\) is not supported/, ['shh_post', 'shh_version', 'shh_newIdentity', 'shh_hasIdentity', 'shh_newGroup',
    'shh_addToGroup', 'shh_newFilter', 'shh_uninstallFilter', 'shh_getFilterChanges', 'shh_getMessages']],
  [/db_\* methods are deprecated/, ['db_putString', 'db_getString', 'db_putHex', 'db_getHex']],
];

Unsupported('each method answers -32601 naming itself and the reason', async () => {
  const rpc = fakeRpc();
  for (const [why, methods] of GROUPS) {
    for (const method of methods) {
      for (const params of [[], ['contract C {}'], ['db', 'key', 'value']]) {
        const err = await rpc.error(method, params);
        assert.is(err.code, -32601, method);
        assert.match(err.message, `the method ${method} does not exist/is not available: `);
        assert.match(err.message, why);
      }
    }
  }
});

Unsupported('switches do not hide the reason', async () => {
  const rpc = fakeRpc({}, resolveSwitches('regtest', { modules: ['net'] }));
  assert.match((await rpc.error('eth_compileSolidity', ['contract C {}'])).message, /compilers are not included/);
  assert.match((await rpc.error('eth_chainId')).message, /eth module is disabled/);
});

Unsupported.run();

/**
 * Groups this node does not serve, by design (README "Method support"): each method answers -32601 saying why,
 * and nothing runs.
 */
import { unavailable, type Methods } from '../method.ts';

const GROUPS: [why: string, names: string[]][] = [
  ['compilers are not included in this node, for security reasons: compile locally and send the bytecode',
    ['eth_getCompilers', 'eth_compileLLL', 'eth_compileSolidity', 'eth_compileSerpent']],
  ['the whisper message protocol (shh) is not supported',
    ['shh_post', 'shh_version', 'shh_newIdentity', 'shh_hasIdentity', 'shh_newGroup', 'shh_addToGroup', 'shh_newFilter',
      'shh_uninstallFilter', 'shh_getFilterChanges', 'shh_getMessages']],
  ['the db_* methods are deprecated', ['db_putString', 'db_getString', 'db_putHex', 'db_getHex']],
];

export const unsupportedMethods = (): Methods =>
  Object.fromEntries(GROUPS.flatMap(([why, names]) => names.map((name) => [name, unavailable(name, why)])));

/**
 * Run by writeBehind.test.ts in a process of its own (`killedWriter.ts --dir <dir>`): writes BATCHES
 * batches to the chain store in that directory, then kills itself with SIGKILL before LevelDB can have
 * written them. Imported, it only exports the batches' keys.
 */
import { ChainStore } from '../../../src/chain/storage/store.ts';

export const BATCHES = 100;
export const headerKey = (i: number) => new Uint8Array(32).fill(i + 1);
export const trieKey = (i: number) => i.toString(16).padStart(64, '0');

const dir = process.argv[2] === '--dir' ? process.argv[3] : undefined;
if (dir) {
  const store = new ChainStore(dir);
  await store.open();
  for (let i = 0; i < BATCHES; i++) {
    store.write([
      { type: 'put', sublevel: store.headers, key: headerKey(i), value: new Uint8Array(2_000).fill(i) },
      { type: 'put', sublevel: store.trie, key: trieKey(i), value: Uint8Array.of(i) },
      { type: 'put', sublevel: store.meta, key: ChainStore.HEAD, value: headerKey(i) },
    ]);
  }
  process.kill(process.pid, 'SIGKILL');
}

/** The remembered peers: bounded whatever peers advertise, kept across restarts, redialled with capped backoff. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AddressBook, MAX_ADDRESSES, MAX_PEERS, REDIAL_CAP_MS, redialDelayMs } from '../../src/p2p/addressBook.ts';
import { tempDir } from '../helpers/node.ts';

const Book = suite('address book');
const id = (n: number) => `12D3KooW${n.toString().padStart(44, 'x')}`;
const BOOT = { peerId: id(0), address: '/ip4/10.0.0.1/tcp/5050' };

Book('a peer advertising thousands of addresses keeps a few dialable ones; wildcard and non-TCP ones are dropped', () => {
  const book = new AddressBook(undefined, [], id(999));
  book.learn(id(1), ['/ip4/0.0.0.0/tcp/5050', '/ip4/1.2.3.4/udp/5050/quic-v1', ...Array.from({ length: 5_000 }, (_, i) => `/ip4/10.1.${i >> 8}.${i & 255}/tcp/5050`)]);
  assert.equal(book.get(id(1))!.addresses, ['/ip4/10.1.0.0/tcp/5050', '/ip4/10.1.0.1/tcp/5050', '/ip4/10.1.0.2/tcp/5050', '/ip4/10.1.0.3/tcp/5050']);
  assert.is(book.get(id(1))!.addresses.length, MAX_ADDRESSES);
  book.learn(id(2), ['/ip4/0.0.0.0/tcp/1', '/ip6/::/tcp/1']);
  assert.is(book.get(id(2)), undefined, 'nothing dialable, nothing kept');
  book.learn(id(999), ['/ip4/10.0.0.9/tcp/1']);
  assert.is(book.get(id(999)), undefined, 'never itself');
});

Book('at most MAX_PEERS peers: the least recently seen goes, a bootnode never', () => {
  const book = new AddressBook(undefined, [BOOT], id(999));
  for (let n = 1; n <= MAX_PEERS + 50; n++) {
    book.learn(id(n), [`/dns4/peer${n}.example/tcp/5050`]);
    book.connected(id(n), n);
  }
  assert.is(book.size, MAX_PEERS);
  assert.ok(book.get(BOOT.peerId), 'the bootnode stays');
  assert.is(book.get(id(1)), undefined, 'the oldest went');
  assert.ok(book.get(id(MAX_PEERS + 50)));
});

Book('kept in the data dir across restarts; a damaged file is ignored', () => {
  const dir = tempDir('mmnode-book-');
  const book = new AddressBook(dir, [BOOT], id(999));
  book.learn(id(7), ['/ip4/10.0.0.7/tcp/5050/p2p/' + id(7)]);
  book.connected(id(7), 1234);
  book.save();
  const again = new AddressBook(dir, [BOOT], id(999));
  assert.equal(again.get(id(7))?.addresses, ['/ip4/10.0.0.7/tcp/5050']);
  assert.is(again.get(id(7))?.lastSeen, 1234);
  writeFileSync(join(dir, 'peers.json'), '{"peers": [{"id": 5, "addresses": "x"}, ');
  assert.is(new AddressBook(dir, [BOOT], id(999)).size, 1, 'only the bootnode');
});

Book('every dial puts the next one off with capped exponential backoff and jitter; a connection resets it', () => {
  assert.is(redialDelayMs(1, () => 0.5), 1_000);
  assert.is(redialDelayMs(4, () => 0.5), 8_000);
  assert.is(redialDelayMs(40, () => 0.5), REDIAL_CAP_MS);
  assert.is(redialDelayMs(1, () => 0), 500);
  assert.is(redialDelayMs(1, () => 0.999), 1_499);
  const book = new AddressBook(undefined, [BOOT], id(999));
  book.dialing(BOOT.peerId, 10_000);
  assert.equal(book.due(10_000, () => false), [], 'not due while its dial is under way, nor once it failed');
  assert.is(book.due(10_000 + 1_500, () => false).length, 1, 'due once the backoff passed');
  book.dialing(BOOT.peerId, 20_000);
  assert.is(book.due(20_000 + 1_000 - 1, () => false).length, 0, 'the second wait is longer');
  book.connected(BOOT.peerId, 30_000);
  assert.is(book.due(30_000, () => false).length, 1);
  assert.is(book.due(30_000, (p) => p === BOOT.peerId).length, 0, 'a peer the dialer must skip (banned, connected) is not due');
});

Book('a peer of another chain is forgotten, and what it advertises soon after is not learned; a bootnode is put off', () => {
  const book = new AddressBook(undefined, [BOOT], id(999));
  book.learn(id(5), ['/ip4/10.0.0.5/tcp/5050'], 1_000);
  book.forget(id(5), 2_000);
  assert.is(book.get(id(5)), undefined);
  // Its identify can arrive after the handshake that made us forget it.
  book.learn(id(5), ['/ip4/10.0.0.5/tcp/5050'], 2_010);
  assert.is(book.get(id(5)), undefined, 'not learned again at once');
  assert.equal(book.due(2_010, () => false).map((p) => p.id), [BOOT.peerId]);
  // Forgotten before anything was learned of it (identify after the handshake) works the same way.
  book.forget(id(6), 2_000);
  book.learn(id(6), ['/ip4/10.0.0.6/tcp/5050'], 2_010);
  assert.is(book.get(id(6)), undefined);
  book.learn(id(5), ['/ip4/10.0.0.5/tcp/5050'], 2_000 + REDIAL_CAP_MS);
  assert.equal(book.get(id(5))?.addresses, ['/ip4/10.0.0.5/tcp/5050'], 'learned again after the longest redial wait');
  book.forget(BOOT.peerId, 3_000);
  assert.ok(book.get(BOOT.peerId), 'a bootnode stays');
  assert.is(book.due(3_000, () => false).some((p) => p.id === BOOT.peerId), false, 'put off');
});

Book.run();

/** web3_* on a real node: the client's name and version, and keccak-256. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../../helpers/node.ts';

const { call, stop } = lazyNode();
const Web3 = suite('web3_*');
Web3.after(stop);

Web3('web3_clientVersion names the client', async () => {
  const version = await call<string>('web3_clientVersion');
  assert.type(version, 'string');
  assert.match(version, /^mmnode\/v?\d+\.\d+\.\d+/);
});

Web3('web3_sha3 is keccak-256', async () => {
  assert.is(await call('web3_sha3', ['0x68656c6c6f20776f726c64']), '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
  assert.is(await call('web3_sha3', ['0x']), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
});

Web3.run();

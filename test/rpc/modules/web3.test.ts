/** web3_* through the dispatcher on fake dependencies: the client's name and version, keccak-256, bad input. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CLIENT_VERSION } from '../../../src/node.ts';
import { fakeRpc } from '../../helpers/fakeRpc.ts';

const Web3 = suite('web3_*');
const rpc = fakeRpc({ clientVersion: CLIENT_VERSION });

Web3('web3_clientVersion is the node\'s name, version, platform and runtime', async () => {
  const version = await rpc.result<string>('web3_clientVersion');
  assert.is(version, CLIENT_VERSION);
  assert.match(version, new RegExp(`^mmnode/v\\d+\\.\\d+\\.\\d+/${process.platform}-${process.arch}/node-v\\d+`));
});

Web3('web3_sha3 is keccak-256 of the bytes', async () => {
  assert.is(await rpc.result('web3_sha3', ['0x68656c6c6f20776f726c64']), '0x47173285a8d7341e5e972fc677286384f802f8ef42a5ec5f03bbfa254cb01fad');
  assert.is(await rpc.result('web3_sha3', ['0x']), '0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  assert.is(await rpc.result('web3_sha3', ['0xABCD']), await rpc.result('web3_sha3', ['0xabcd']), 'hex digits in either case');
});

Web3('web3_sha3 refuses what is not 0x-prefixed bytes: -32602 naming the parameter', async () => {
  for (const bad of [undefined, null, 'hello', '0x123', '0xzz', 42, ['0x00']]) {
    const err = await rpc.error('web3_sha3', bad === undefined ? [] : [bad]);
    assert.is(err.code, -32602, `${JSON.stringify(bad)}: ${err.message}`);
    assert.match(err.message, '0 (data)');
  }
  const extra = await rpc.error('web3_sha3', ['0x', '0x']);
  assert.is(extra.code, -32602);
  assert.match(extra.message, 'too many arguments: this method takes at most 1, got 2');
  assert.is((await rpc.error('web3_clientVersion', [1])).code, -32602);
});

Web3.run();

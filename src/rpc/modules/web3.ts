import { hex, keccak256 } from '../../chain/codec/bytes.ts';
import type { RpcDeps } from '../deps.ts';
import { method } from '../method.ts';
import { data } from '../params.ts';

export const web3Module = (deps: Pick<RpcDeps, 'clientVersion'>) => ({
  web3_clientVersion: method([], () => deps.clientVersion),
  web3_sha3: method([['data', data]], ([bytes]) => hex(keccak256(bytes))),
});

/**
 * The method-support table (README "Method support"), method by method: every method marked supported (and the
 * partially supported ones) is served on a regtest node with every module on. Called without
 * parameters, each answers a result or names what is missing (-32602), never "method not found"
 * (-32601) or an internal error (-32603). What each one answers is checked by the tests of its group.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyNode } from '../../helpers/node.ts';
import { post } from '../../helpers/rpc.ts';

const SUPPORTED: Record<string, string[]> = {
  web3: ['web3_clientVersion', 'web3_sha3'],
  'net / eth': [
    'net_version', 'net_peerCount', 'net_peerList', 'net_listening', 'eth_chainId', 'eth_protocolVersion', 'eth_syncing', 'eth_coinbase',
    'eth_mining', 'eth_hashrate', 'eth_gasPrice', 'eth_accounts', 'eth_blockNumber', 'eth_getBalance', 'eth_getStorageAt',
    'eth_getTransactionCount', 'eth_getBlockTransactionCountByHash', 'eth_getBlockTransactionCountByNumber', 'eth_getUncleCountByBlockHash',
    'eth_sign', 'eth_sendTransaction', 'eth_sendRawTransaction', 'eth_call', 'eth_estimateGas', 'eth_getBlockByHash', 'eth_getTransactionByHash',
    'eth_getTransactionByBlockHashAndIndex', 'eth_getTransactionReceipt', 'eth_pendingTransactions', 'eth_getUncleByBlockHashAndIndex',
    'eth_newFilter', 'eth_newBlockFilter', 'eth_newPendingTransactionFilter', 'eth_uninstallFilter', 'eth_getFilterChanges', 'eth_getFilterLogs',
    'eth_getLogs', 'eth_bridgeState', 'eth_netHashrate',
  ],
  partially: ['eth_getUncleCountByBlockNumber', 'eth_getCode', 'eth_getBlockByNumber', 'eth_getTransactionByBlockNumberAndIndex', 'eth_getUncleByBlockNumberAndIndex'],
  debug: ['debug_traceTransaction', 'debug_traceBlockByHash', 'debug_wireProtocolQueueSize'],
  evm: ['evm_increaseTime', 'evm_mine', 'evm_reset', 'evm_revert', 'evm_snapshot', 'evm_startMining', 'evm_stopMining'],
  mnr: ['mnr_submitBitcoinBlock', 'mnr_submitBitcoinBlockTransactions', 'mnr_submitBitcoinBlockPartialMerkle', 'mnr_getWork'],
  personal: [
    'personal_dumpRawKey', 'personal_importRawKey', 'personal_listAccounts', 'personal_lockAccount', 'personal_newAccountWithSeed',
    'personal_newAccount', 'personal_sendTransaction', 'personal_unlockAccount',
  ],
  chain: [
    'chain_getRawTransactionReceiptByHash', 'chain_getTransactionReceiptNodesByHash', 'chain_getRawBlockHeaderByHash',
    'chain_getRawBlockHeaderByNumber', 'chain_protocolVersion',
  ],
  trace: ['trace_transaction', 'trace_block', 'trace_filter'],
  txpool: ['txpool_content', 'txpool_inspect', 'txpool_status'],
  sco: ['sco_banAddress', 'sco_unbanAddress', 'sco_peerList', 'sco_bannedAddresses', 'sco_reputationSummary'],
};

const { url, call, stop } = lazyNode();
const Support = suite('method support');
Support.after(stop);

for (const [module, methods] of Object.entries(SUPPORTED)) {
  Support(`${module}: every method is served`, async () => {
    for (const method of methods) {
      const { json } = await post(await url(), JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [] }));
      if (json.error) {
        assert.is(json.error.code, -32602, `${method}: ${json.error.code} ${json.error.message}`);
      } else {
        assert.ok('result' in json, method);
      }
    }
  });
}

Support('eth_gasPrice is the head block minimum gas price × 1.1, as the reference computes it', async () => {
  const head = await call('eth_getBlockByNumber', ['latest', false]);
  assert.is(BigInt(await call('eth_gasPrice')), (BigInt(head.minimumGasPrice) * 11n) / 10n);
});

Support.run();

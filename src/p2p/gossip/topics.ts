/**
 * Gossip topics, scoped by network and genesis hash so nodes of another chain never share a mesh,
 * and gossipsub's per-topic peer scoring (docs/network.md "Gossip").
 */
import { bytesToHex } from '@ethereumjs/util';
import { createTopicScoreParams, type TopicScoreParams } from '@libp2p/gossipsub/score';

export interface Topics {
  readonly blocks: string;
  readonly txs: string;
}

export function gossipTopics(network: string, genesisHash: Uint8Array): Topics {
  const scope = `/mmnode/${network}/${bytesToHex(genesisHash).slice(2, 18)}`;
  return { blocks: `${scope}/blocks/1`, txs: `${scope}/txs/1` };
}

/**
 * Blocks weigh more than transactions. A peer earns score by delivering messages first (capped, and
 * decaying so old merit fades) and loses it quadratically for messages its validator rejected: one
 * invalid block costs a peer more than a long record of first deliveries earns, one invalid
 * transaction less. Mesh-delivery quotas stay off: block times vary (automine, intervals, idle
 * chains), so a quiet peer is not a faulty one.
 */
export function topicScoreParams(topics: Topics): Record<string, TopicScoreParams> {
  const common = {
    timeInMeshWeight: 0.01, timeInMeshQuantum: 1_000, timeInMeshCap: 300,
    firstMessageDeliveriesDecay: 0.9, firstMessageDeliveriesCap: 20,
    meshMessageDeliveriesWeight: 0, meshFailurePenaltyWeight: 0,
    invalidMessageDeliveriesDecay: 0.99,
  };
  return {
    [topics.blocks]: createTopicScoreParams({ ...common, topicWeight: 1, firstMessageDeliveriesWeight: 1, invalidMessageDeliveriesWeight: -100 }),
    [topics.txs]: createTopicScoreParams({ ...common, topicWeight: 0.5, firstMessageDeliveriesWeight: 0.2, invalidMessageDeliveriesWeight: -20 }),
  };
}

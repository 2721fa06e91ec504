/** Failures of the P2P facade that say whose fault they are (docs/network.md "Scoring and bans"). */

/**
 * A peer answered a request, but not as its protocol says (beyond the size limit, or not decodable):
 * the peer's fault, unlike a request that failed on the way (timeout, connection lost), which may
 * only mean the peer went away.
 */
export class MalformedResponseError extends Error {
  /** `cause`: what reading or decoding the answer to `protocol` threw. */
  constructor(protocol: string, cause: unknown) {
    super(`${protocol}: ${(cause as Error).message}`, { cause });
  }
}

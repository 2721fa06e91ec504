/** Size limits of the wire (docs/network.md "Limits"). */

/** Largest gossip message. */
export const MAX_GOSSIP_BYTES = 4 * 1024 * 1024;
/** Largest request and response of a request/response protocol. */
export const MAX_REQUEST_BYTES = 64 * 1024;
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** How long a request may take, each way. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** Encoded items in order until the first missing one, within the response size limit. */
export function fitResponse(items: (Uint8Array | undefined)[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let size = 0;
  for (const raw of items) {
    if (!raw || size + raw.length > MAX_RESPONSE_BYTES - 1024) break;
    size += raw.length;
    out.push(raw);
  }
  return out;
}

/** Parsing JSON-RPC bodies. */

/** JSON source-text access (Node ≥ 21): not yet in TypeScript's lib. */
const RawJson = JSON as unknown as { rawJSON(text: string): object; isRawJSON(value: unknown): boolean };

/**
 * JSON.parse that keeps a request id beyond 2^53 as its exact source text, so the reply echoes
 * the very same number (JSON-RPC 2.0: "the same value as the request").
 */
export function parseJson(text: string): unknown {
  return JSON.parse(text, function (this: Record<string, unknown>, key, value, context?: { source?: string }) {
    if (key === 'id' && typeof value === 'number' && !Number.isSafeInteger(value) && 'method' in this && context?.source) {
      return RawJson.rawJSON(context.source);
    }
    return value;
  } as (key: string, value: unknown) => unknown);
}

export const isRawJson = (value: unknown): boolean => RawJson.isRawJSON(value);

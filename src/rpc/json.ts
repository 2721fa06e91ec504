/** JSON text of JSON-RPC messages: parsing requests, writing replies. */

/** JSON source-text access (Node ≥ 21): not yet in TypeScript's lib. */
const RawJson = JSON as unknown as { rawJSON(text: string): object; isRawJSON(value: unknown): boolean };

/**
 * JSON.parse that keeps a request id beyond 2^53 as its exact source text, so the reply echoes
 * the very same number (JSON-RPC 2.0: "the same value as the request"). Such ids are rare, and a
 * reviver slows every parse: only a request (or batch) that has one is parsed again with it.
 */
export function parseJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return (Array.isArray(value) ? value.some(hasUnsafeId) : hasUnsafeId(value)) ? JSON.parse(text, keepIdSource as never) : value;
}

const hasUnsafeId = (message: unknown): boolean => {
  const id = (message as { id?: unknown } | null)?.id;
  return typeof id === 'number' && !Number.isSafeInteger(id);
};

function keepIdSource(this: Record<string, unknown>, key: string, value: unknown, context?: { source?: string }): unknown {
  if (key === 'id' && typeof value === 'number' && !Number.isSafeInteger(value) && 'method' in this && context?.source) {
    return RawJson.rawJSON(context.source);
  }
  return value;
}

export const isRawJson = (value: unknown): boolean => RawJson.isRawJSON(value);

/**
 * A method's result that is an array of elements already written as JSON text (logs keep theirs:
 * src/rpc/format.ts), so a reply of thousands of them is copied together, not built and stringified.
 */
export class JsonArrayText {
  constructor(readonly items: readonly string[]) {}
}

/** A method's result already written as JSON text (an RPC worker's answer), copied into the reply as is. */
export class JsonText {
  constructor(readonly text: string) {}
}

/**
 * A method's result arriving as pieces of JSON (UTF-8 chunks of a struct-log trace an RPC worker
 * streams, then the rest as text), written to the client as they come (docs/rpc-workers.md,
 * "Streamed traces"). `written` is told how many bytes have reached the client's socket: the
 * producer waits while too many have not.
 */
export class JsonStream {
  readonly #pieces: (Uint8Array | string)[] = [];
  #ended = false;
  #error?: Error;
  #wake?: () => void;

  constructor(first: Uint8Array, readonly written: (bytes: number) => void) {
    this.#pieces.push(first);
  }

  push(bytes: Uint8Array): void {
    this.#pieces.push(bytes);
    this.#wakeUp();
  }

  end(text: string): void {
    this.#pieces.push(text);
    this.#ended = true;
    this.#wakeUp();
  }

  /** The result cannot be completed: whoever reads it stops with `error`. */
  fail(error: Error): void {
    this.#error = error;
    this.#wakeUp();
  }

  /** The pieces in order, as they come; throws once the stream failed. */
  async *pieces(): AsyncGenerator<Uint8Array | string> {
    for (;;) {
      if (this.#error) throw this.#error;
      const piece = this.#pieces.shift();
      if (piece !== undefined) yield piece;
      else if (this.#ended) return;
      else await new Promise<void>((resolve) => { this.#wake = resolve; });
    }
  }

  #wakeUp(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}

/**
 * Replies with text results shorter than this (in UTF-16 units) are one string: Node writes an HTTP
 * reply's head and a string body in one write, a Buffer body as a second chunk of a writev
 * (docs/rpc-workers.md, "Calls").
 */
const ONE_STRING_BELOW = 64 * 1024;

/**
 * A reply (a response, a batch of them, or a notification) as JSON: a string, or when a result is
 * a JsonText or JsonArrayText, its text spliced in ({"jsonrpc","id","result"} as stringified): a
 * string when short, else the UTF-8 bytes with the pieces copied in.
 */
export function replyJson(reply: unknown): string | Buffer {
  const replies = Array.isArray(reply) ? reply : [reply];
  if (!replies.some(hasText)) return JSON.stringify(reply);
  const pieces: string[] = Array.isArray(reply) ? ['['] : [];
  replies.forEach((r, i) => {
    if (i > 0) pieces.push(',');
    if (!hasText(r)) {
      pieces.push(JSON.stringify(r));
      return;
    }
    if (r.result instanceof JsonText) {
      pieces.push(`{"jsonrpc":"2.0","id":${JSON.stringify(r.id)},"result":`, r.result.text, '}');
      return;
    }
    pieces.push(`{"jsonrpc":"2.0","id":${JSON.stringify(r.id)},"result":[`);
    r.result.items.forEach((item, j) => {
      if (j > 0) pieces.push(',');
      pieces.push(item);
    });
    pieces.push(']}');
  });
  if (Array.isArray(reply)) pieces.push(']');
  let length = 0;
  for (const p of pieces) length += p.length;
  return length < ONE_STRING_BELOW ? pieces.join('') : utf8(pieces);
}

const hasText = (r: unknown): r is { id: unknown; result: JsonArrayText | JsonText } => {
  const result = (r as { result?: unknown } | null)?.result;
  return result instanceof JsonArrayText || result instanceof JsonText;
};

/** The pieces written one after the other into one Buffer (a body of one write, its length known). */
function utf8(pieces: readonly string[]): Buffer {
  let size = 0;
  for (const p of pieces) size += Buffer.byteLength(p);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of pieces) at += out.write(p, at);
  return out;
}

/**
 * Where a struct-log trace's JSON text goes, piece by piece (docs/rpc-workers.md, "Streamed traces"):
 * collected into one text (a batch, a WebSocket message), or sent
 * on by an RPC worker in chunks as the trace grows, so no thread holds the whole trace. Either way its
 * size is bounded, and the error says what can help.
 */
import { NodeError } from '../errors.ts';

/** Bytes of struct logs one collected request may produce. */
export const MAX_COLLECTED_TRACE_BYTES = 64 * 1024 * 1024;
/** Bytes of struct logs one streamed request may produce: the client holds them, not the node. */
export const MAX_STREAMED_TRACE_BYTES = 1024 * 1024 * 1024;

export abstract class TraceOutput {
  #left: number;
  #steps = 0;
  /** Bytes the steps so far would take with memory, stack and storage disabled. */
  #bare = 0;

  constructor(readonly limit: number) {
    this.#left = limit;
  }

  /**
   * Appends JSON text: one step's entry of which `bare` bytes remain when memory, stack and storage
   * are disabled, or (`bare` 0) the trace's frame. A promise asks the producer to wait for it (the
   * client reads slower than the trace grows).
   */
  write(text: string, bare = 0): void | Promise<void> {
    this.#left -= text.length;
    if (bare) {
      this.#steps++;
      this.#bare += bare;
    }
    if (this.#left < 0) this.#tooLarge();
    return this.push(text);
  }

  /** The text written since the last chunk sent: all of it for a collected trace. */
  abstract finish(): string;

  protected abstract push(text: string): void | Promise<void>;

  #tooLarge(): never {
    const flagsHelp = this.#bare <= this.limit;
    throw new NodeError('LIMIT_EXCEEDED', `trace too large: its struct logs passed ${this.limit >> 20} MiB after ${this.#steps} steps; `
      + (flagsHelp
        ? 'disableMemory, disableStack and disableStorage make each step smaller (the transaction may have more steps still), or use '
        : 'even without memory, stack and storage those steps would not fit: use ')
      + 'the callTracer (one entry per call, not per step), or trace_transaction');
  }
}

/** A trace held whole until its request is answered. */
export class CollectedTrace extends TraceOutput {
  readonly #pieces: string[] = [];

  constructor() {
    super(MAX_COLLECTED_TRACE_BYTES);
  }

  protected push(text: string): void {
    this.#pieces.push(text);
  }

  finish(): string {
    return this.#pieces.join('');
  }
}

/** Bytes gathered into one chunk before it is sent: large enough that a message's cost is negligible. */
export const CHUNK_BYTES = 256 * 1024;
/** Chunks sent and not yet written to the client's socket, in bytes: past it, the trace waits. */
export const STREAM_WINDOW_BYTES = 4 * 1024 * 1024;

/** Text encoded at once, in characters: the pieces of a step or a few die young, cheap for the collector. */
const ENCODE_CHARS = 16 * 1024;

/**
 * A trace sent on (`send`) in chunks of UTF-8 as it grows, each in a buffer of its own that the message
 * moves rather than copies; paused while more than STREAM_WINDOW_BYTES are unacknowledged.
 */
export class StreamedTrace extends TraceOutput {
  /** Text not encoded yet, and its length. */
  #text: string[] = [];
  #textLength = 0;
  /** Encoded and not sent yet, and its size. */
  #encoded: Buffer[] = [];
  #encodedBytes = 0;
  #unacked = 0;
  #resume?: () => void;

  constructor(private readonly send: (chunk: Uint8Array) => void) {
    super(MAX_STREAMED_TRACE_BYTES);
  }

  protected push(text: string): void | Promise<void> {
    this.#text.push(text);
    this.#textLength += text.length;
    if (this.#textLength < ENCODE_CHARS) return;
    const bytes = Buffer.from(this.#takeText());
    this.#encoded.push(bytes);
    this.#encodedBytes += bytes.length;
    if (this.#encodedBytes < CHUNK_BYTES) return;
    const chunk = Buffer.concat(this.#encoded, this.#encodedBytes);
    this.#encoded = [];
    this.#encodedBytes = 0;
    this.#unacked += chunk.length;
    this.send(chunk);
    if (this.#unacked > STREAM_WINDOW_BYTES) return new Promise((resolve) => { this.#resume = resolve; });
  }

  /** `bytes` of the chunks sent have reached the client's socket. */
  acknowledge(bytes: number): void {
    this.#unacked -= bytes;
    if (this.#unacked > STREAM_WINDOW_BYTES) return;
    const resume = this.#resume;
    this.#resume = undefined;
    resume?.();
  }

  /** The text not sent yet (the answer that ends the stream carries it). */
  finish(): string {
    const encoded = this.#encoded.length ? Buffer.concat(this.#encoded).toString() : '';
    this.#encoded = [];
    this.#encodedBytes = 0;
    return encoded + this.#takeText();
  }

  #takeText(): string {
    const text = this.#text.join('');
    this.#text = [];
    this.#textLength = 0;
    return text;
  }
}

/**
 * The chain store's write-ahead journal (docs/chain.md "Writes behind the head"): every batch the store
 * hands to LevelDB is first appended to `<data dir>/chain.journal` with one synchronous write, so a batch
 * whose head was published survives a kill -9 while LevelDB is still writing it on libuv's pool. At open
 * the store writes every whole record again, in order (one LevelDB already has changes nothing), and the
 * file is emptied once LevelDB has them all.
 *
 * A record: body length (u32 LE), CRC-32 of the body (u32 LE), body. The body is the batch's operations,
 * each a kind (0 put, 1 del), a sublevel number, the key (u32 LE length, bytes) and for a put the value
 * (u32 LE length, bytes). A record cut short or damaged (the process killed within its write) ends the
 * journal: its batch was never published.
 */
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';

export interface JournalOp {
  readonly del: boolean;
  readonly sublevel: number;
  readonly key: Uint8Array;
  readonly value?: Uint8Array;
}

const HEADER_BYTES = 8;
/** Past this size the file is emptied as soon as LevelDB has every record in it (below it, an empty queue is not worth a syscall). */
const EMPTY_PAST_BYTES = 1 << 20;

export class WriteJournal {
  #fd: number | undefined;
  #bytes = 0;

  constructor(readonly path: string) {}

  /** The whole records in the file, oldest first. */
  read(): JournalOp[][] {
    if (!existsSync(this.path)) return [];
    const file = readFileSync(this.path);
    const records: JournalOp[][] = [];
    for (let at = 0; at + HEADER_BYTES <= file.length;) {
      const length = file.readUInt32LE(at);
      const end = at + HEADER_BYTES + length;
      if (end > file.length) break;
      const body = file.subarray(at + HEADER_BYTES, end);
      if (crc32(body) !== file.readUInt32LE(at + 4)) break;
      records.push(decodeOps(body));
      at = end;
    }
    return records;
  }

  /** Opens the file for appending, emptied: call once what `read` returned is in LevelDB. */
  open(): void {
    // Appending (O_APPEND), so that a write after an emptying goes to the file's start.
    this.#fd = openSync(this.path, 'a');
    ftruncateSync(this.#fd, 0);
    this.#bytes = 0;
  }

  /** Appends one batch's record; returns once the kernel has it. */
  append(ops: readonly JournalOp[]): void {
    if (this.#fd === undefined) throw new Error('the chain journal is not open');
    const record = encodeRecord(ops);
    writeSync(this.#fd, record);
    this.#bytes += record.length;
  }

  /** Called when LevelDB has every record appended so far. */
  caughtUp(): void {
    if (this.#fd === undefined || this.#bytes < EMPTY_PAST_BYTES) return;
    ftruncateSync(this.#fd, 0);
    this.#bytes = 0;
  }

  /** Empties the file and closes it: call only when LevelDB has every record. */
  close(): void {
    if (this.#fd === undefined) return;
    ftruncateSync(this.#fd, 0);
    closeSync(this.#fd);
    this.#fd = undefined;
  }
}

function encodeRecord(ops: readonly JournalOp[]): Buffer {
  let length = 0;
  for (const op of ops) length += 6 + op.key.length + (op.del ? 0 : 4 + op.value!.length);
  const record = Buffer.allocUnsafe(HEADER_BYTES + length);
  let at = HEADER_BYTES;
  for (const op of ops) {
    record[at++] = op.del ? 1 : 0;
    record[at++] = op.sublevel;
    at = record.writeUInt32LE(op.key.length, at);
    record.set(op.key, at);
    at += op.key.length;
    if (op.del) continue;
    at = record.writeUInt32LE(op.value!.length, at);
    record.set(op.value!, at);
    at += op.value!.length;
  }
  const body = record.subarray(HEADER_BYTES);
  record.writeUInt32LE(length, 0);
  record.writeUInt32LE(crc32(body), 4);
  return record;
}

function decodeOps(body: Buffer): JournalOp[] {
  const ops: JournalOp[] = [];
  for (let at = 0; at < body.length;) {
    const del = body[at++] === 1;
    const sublevel = body[at++]!;
    const keyLength = body.readUInt32LE(at);
    const key = body.subarray(at + 4, at + 4 + keyLength);
    at += 4 + keyLength;
    if (del) {
      ops.push({ del, sublevel, key });
      continue;
    }
    const valueLength = body.readUInt32LE(at);
    ops.push({ del, sublevel, key, value: body.subarray(at + 4, at + 4 + valueLength) });
    at += 4 + valueLength;
  }
  return ops;
}

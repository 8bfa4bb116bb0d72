// Turns an input's raw bytes into UTF-8 bytes: gunzips when the gzip magic is there (whatever the
// name says, so gzip on stdin works too), strips a UTF-8 BOM, and decodes UTF-16 (LE or BE, by its
// BOM: what Windows PowerShell's `>` writes) to UTF-8. Everything stays a stream.
import { loadStream, loadZlib } from '../lazy.js';
import type { DecodedFrom } from '../framing/utf8.js';
import { loneSurrogate } from '../text.js';

export class InputDataError extends Error {
  override name = 'InputDataError';
}

/** The input's data stops short (gzip cut off): what was decoded is all there is, its last line cut with it. */
export class InputEndsEarly extends InputDataError {
  override name = 'InputEndsEarly';
}

/** A whole small file is one Buffer in an array; streams and stdin are async. */
export type ChunkSource = AsyncIterable<Buffer> | Iterable<Buffer>;

async function* peeked(first: Buffer, rest: AsyncIterator<Buffer> | Iterator<Buffer>): AsyncGenerator<Buffer> {
  if (first.length > 0) yield first;
  for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
}

/** Reads until at least `n` bytes are there (or the input ends), keeping the rest of the stream. */
async function peek(chunks: ChunkSource, n: number): Promise<{ head: Buffer; stream: AsyncGenerator<Buffer> }> {
  const iterator = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  const parts: Buffer[] = [];
  let length = 0;
  while (length < n) {
    const next = await iterator.next();
    if (next.done) break;
    parts.push(next.value);
    length += next.value.length;
  }
  const head = parts.length === 1 ? parts[0]! : Buffer.concat(parts, length);
  return { head, stream: peeked(head, iterator) };
}

/** The input's raw bytes again, from its first: a file can be read twice, standard input cannot. */
export type Reread = () => ChunkSource;

/**
 * pipeline, not .pipe(), which forwards no error: a source destroyed by Ctrl-C (or failing to read)
 * fails the gunzip stream, read below, rather than emit an unhandled 'error' that ends the process.
 */
function inflated(chunks: ChunkSource, chunkSize: number): AsyncIterable<Buffer> {
  const { pipeline, Readable } = loadStream();
  return pipeline(Readable.from(chunks), loadZlib().createGunzip({ chunkSize }), () => {});
}

async function* gunzip(chunks: AsyncIterable<Buffer>, reread?: Reread): AsyncGenerator<Buffer> {
  let delivered = 0;
  try {
    for await (const chunk of inflated(chunks, 1 << 20)) {
      delivered += chunk.length;
      yield chunk;
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Ctrl-C: no fault in the data, and nothing to decode again.
    if (code === 'ABORT_ERR') throw error;
    // Data cut short loses nothing: zlib gives what it decoded before the end.
    if (code === 'Z_BUF_ERROR') throw new InputEndsEarly('gzip data ends early');
    if (reread) yield* decodedBeforeFault(reread(), delivered);
    throw new InputDataError(`gzip data is corrupt (${(error as Error).message})`);
  }
}

/**
 * zlib drops what it decoded in the call that met corrupt data (or garbage after the last member):
 * up to a first-pass piece of records before the fault. The input is decoded again, only on that
 * path, in 16 KiB pieces (slower than the first pass's), and what the first pass did not deliver
 * is: at most 16 KiB before the fault is lost.
 */
async function* decodedBeforeFault(chunks: ChunkSource, delivered: number): AsyncGenerator<Buffer> {
  let seen = 0;
  try {
    for await (const chunk of inflated(chunks, 1 << 14)) {
      const end = seen + chunk.length;
      if (end > delivered) yield seen >= delivered ? chunk : chunk.subarray(delivered - seen);
      seen = end;
    }
  } catch {
    // The same fault, met again where the first pass met it: that pass's error is the input's.
  }
}

/**
 * UTF-8 bytes of `text`, a lone surrogate written as the three bytes it would take (ED A0 80 for
 * U+D800), which no UTF-8 holds: the line is then a parse error at its column, as the same text in
 * UTF-8 is. TextDecoder would make it U+FFFD, and the record pass.
 */
function utf8Marking(text: string): Buffer {
  if (!loneSurrogate.test(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    const next = text.charCodeAt(i + 1);
    if (unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    parts.push(Buffer.from(text.slice(from, i), 'utf8'), Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]));
    from = i + 1;
  }
  parts.push(Buffer.from(text.slice(from), 'utf8'));
  return Buffer.concat(parts);
}

/** UTF-16 (its BOM first) to UTF-8, a unit or a high surrogate cut by a chunk's end carried to the next. */
async function* utf16ToUtf8(chunks: AsyncIterable<Buffer>, encoding: 'utf-16le' | 'utf-16be'): AsyncGenerator<Buffer> {
  // Whole units as UTF-8 (big-endian ones swapped on a copy: the chunk is the reader's).
  const utf8Of = (units: Buffer) => utf8Marking((encoding === 'utf-16le' ? units : Buffer.from(units).swap16()).toString('utf16le'));
  let carry = Buffer.alloc(0);
  let bom = 2;
  for await (const chunk of chunks) {
    let bytes = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    if (bom > 0) {
      const skipped = Math.min(bom, bytes.length);
      bytes = bytes.subarray(skipped);
      bom -= skipped;
    }
    let even = bytes.length & ~1;
    // A high surrogate last: its low half may start the next chunk.
    if (even >= 2) {
      const last = encoding === 'utf-16le' ? bytes.readUInt16LE(even - 2) : bytes.readUInt16BE(even - 2);
      if (last >= 0xd800 && last <= 0xdbff) even -= 2;
    }
    carry = Buffer.from(bytes.subarray(even));
    if (even === 0) continue;
    yield utf8Of(bytes.subarray(0, even));
  }
  if (carry.length === 0) return;
  const whole = carry.length & ~1;
  // An odd byte at the end is no UTF-16 unit: a byte no UTF-8 holds marks it, as a lone surrogate is marked.
  yield Buffer.concat([utf8Of(carry.subarray(0, whole)), carry.length > whole ? Buffer.from([0xff]) : Buffer.alloc(0)]);
}

async function* skip(chunks: AsyncIterable<Buffer>, bytes: number): AsyncGenerator<Buffer> {
  let left = bytes;
  for await (const chunk of chunks) {
    if (left >= chunk.length) {
      left -= chunk.length;
      continue;
    }
    yield left > 0 ? chunk.subarray(left) : chunk;
    left = 0;
  }
}

// What an input's first bytes say about how to read it; one place for the magic numbers.
const isGzip = (head: Uint8Array): boolean => head[0] === 0x1f && head[1] === 0x8b;
export const hasUtf8Bom = (head: Uint8Array): boolean => head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
export function utf16Of(head: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** Gzip or UTF-16: the input must be decoded from its first byte (it cannot be read in byte ranges). */
export function needsDecoding(head: Uint8Array): boolean {
  return isGzip(head) || utf16Of(head) !== undefined;
}

/**
 * A whole input in one Buffer, when it needs no decoding: its UTF-8 bytes (a BOM cut off). Gzip and
 * UTF-16 give undefined: decodeInput streams those.
 */
export function plainUtf8(bytes: Buffer): Buffer | undefined {
  if (needsDecoding(bytes)) return undefined;
  return hasUtf8Bom(bytes) ? bytes.subarray(3) : bytes;
}

/**
 * A whole settings file (config, codes, schema, baseline) as text: UTF-8 with or without a BOM, or
 * UTF-16 by its BOM, which is what Windows PowerShell 5's `Out-File` and `>` write.
 */
export function decodeWhole(bytes: Buffer): string {
  const utf16 = utf16Of(bytes);
  if (utf16 !== undefined) return new TextDecoder(utf16).decode(bytes);
  return bytes.toString('utf8', hasUtf8Bom(bytes) ? 3 : 0);
}

/** An input as UTF-8 chunks, and what it was decoded from when it was UTF-16. */
export interface DecodedInput {
  chunks: AsyncIterable<Buffer>;
  from?: DecodedFrom;
}

export async function decodeInput(raw: ChunkSource, reread?: Reread): Promise<DecodedInput> {
  let { head, stream } = await peek(raw, 3);
  if (isGzip(head)) ({ head, stream } = await peek(gunzip(stream, reread), 3));
  if (hasUtf8Bom(head)) return { chunks: skip(stream, 3) };
  const utf16 = utf16Of(head);
  if (utf16 !== undefined) return { chunks: utf16ToUtf8(stream, utf16), from: utf16 === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE' };
  return { chunks: stream };
}

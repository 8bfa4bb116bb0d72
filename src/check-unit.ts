// One unit of work: a whole input, or a byte range of a large line-delimited file. Reads it, frames
// it, unwraps and checks every entry, and returns its findings (in order) and its own summary. The same
// code runs on the main thread and in worker threads; src/run.ts puts the results together.
import { closeSync, createReadStream, fstatSync, openSync, read, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { addAbortSignal, type Readable } from 'node:stream';
import { checkFacts, ruleFinding, type CheckContext } from './checks/check-envelope.js';
import { errorObject, factsOf, stringMember } from './checks/envelope.js';
import type { CheckOptions } from './context.js';
import { UsageError, describeReadError } from './errors.js';
import { FindingStore, LineFindings, SpillBudget, type StoredFindings } from './findings/store.js';
import { byPlace } from './findings/order.js';
import { valuePlaces } from './findings/value-place.js';
import { fingerprint } from './fingerprint.js';
import { frameBuffer, frameInput, framingFor, type Framing, type FramingOptions } from './framing/index.js';
import { NdjsonFramer } from './framing/ndjson.js';
import { InputDataError, decodeInput, needsDecoding, plainUtf8, type ChunkSource } from './sources/decode.js';
import type { InputSource } from './sources/input-source.js';
import { readSpecial } from './sources/special.js';
import { asBytes, standardInput, untilAborted, type StdinChunks } from './sources/stdin.js';
import { Tally } from './tally.js';
import { noEntries, noToolResults, type EntryKinds } from './tool-results.js';
import type { Finding, Framed, InputFailure, ParseHint, Progress, RecordFinding, Summary, ValuePlace, Wrapping } from './types.js';
import { unwrappers, type UnwrapMode } from './unwrap/index.js';
import { sessionFacts, TranscriptWatcher, type SessionFacts, type TranscriptFacts } from './bundle-checks.js';
import { defaultMaxZipEntryBytes, looksLikeZip, RefusedEntry, zipEntryChunks } from './sources/zip.js';

/** A byte range [start, end) of a file, starting at a line start; `index` 0 is the file's first. */
export interface ByteRange {
  start: number;
  end: number;
  index: number;
  /** The file the plan measured (fstat's device and inode), which each range checks it reads. */
  file?: { dev: number; ino: number };
}

export interface Unit {
  source: InputSource;
  range?: ByteRange;
}

export interface UnitResult {
  /** In report order; lines relative to the range's first line. */
  findings: StoredFindings;
  /** This unit's own counts; absent when it added them to a tally the caller passed. */
  summary?: Summary;
  /** Entries framed: an input with none at all gets `empty-input`. */
  entries: number;
  /** What its entries were (lines relative to the range's first line): an input of ranges gets `no-tool-results` from their sum. */
  kinds: EntryKinds;
  /** Line breaks read: where the next range's line numbers start. */
  lines: number;
  failure?: InputFailure;
  /** It could not be read at all (opened, or its first bytes read): no input of `summary.inputs`. */
  unread?: true;
  /** It held JSON-RPC messages, whose pairing a byte range cannot see whole. */
  paired: boolean;
  /** Ctrl-C stopped it: it may end before its last line. */
  interrupted?: true;
  /** A followed file's findings of the readings before the last (rotated or truncated), in reading order. */
  earlier?: StoredFindings[];
  /** Its findings were handed to `io.live` as they became final. */
  streamed?: true;
  /** An evidence bundle's session.json (parsed) or transcript: what the bundle's cross-checks read (spec section 8.2). */
  bundle?: { session?: SessionFacts; transcript?: TranscriptFacts };
}

/** The options a unit needs; plain data, so that they can be posted to a worker. */
export type UnitOptions = Omit<CheckOptions, 'stdin' | 'signal' | 'shard' | 'jobs' | 'stdinFilename'>;

/** Where a record's findings are, and what a baseline matches them on; one shape, filled in place. */
interface Place {
  line: number;
  column: number | undefined;
  tool: string | undefined;
  wrapping: Wrapping | undefined;
  code: string | undefined;
  fingerprint: string | undefined;
}

function at(line: number, column?: number, tool?: string, wrapping?: Wrapping): Place {
  return { line, column, tool, wrapping, code: undefined, fingerprint: undefined };
}

/** Assigned field by field: an object spread here costs more, on every finding. */
function locate(finding: RecordFinding, source: string, place: Place): Finding {
  const location: Finding['location'] = { source, line: place.line };
  if (place.column !== undefined) location.column = place.column;
  if (finding.pointer !== undefined) location.pointer = finding.pointer;
  const located: Finding = { rule: finding.rule, severity: finding.severity, message: finding.message, location };
  if (finding.keyword !== undefined) located.keyword = finding.keyword;
  if (finding.schemaPath !== undefined) located.schemaPath = finding.schemaPath;
  if (finding.suggestion !== undefined) located.suggestion = finding.suggestion;
  if (place.tool !== undefined) located.tool = place.tool;
  if (place.wrapping !== undefined) located.wrapping = place.wrapping;
  if (place.code !== undefined) located.code = place.code;
  if (place.fingerprint !== undefined) located.fingerprint = place.fingerprint;
  return located;
}

class SourceChecker {
  findings: FindingStore;
  /** Findings reach the store through this: those of records that share a line, in report order. */
  private line: LineFindings;
  entries = 0;
  /** What the entries were, for `no-tool-results`. */
  kinds: EntryKinds = noEntries();
  private unwrapper;
  /** A followed file's stores of the files (or starts) read before the current one, sealed, in reading order. */
  readonly earlier: StoredFindings[] = [];
  /** A streamed input's findings since they were last taken (spec section 8.10); undefined when it is not streamed. */
  private live: Finding[] | undefined;
  /** A streamed input's findings known only at its end (or at a followed file's restart). */
  private liveLate: Finding[] = [];
  /** Set for a bundle's transcript: the sessions its lines name and how it ends. */
  watcher: TranscriptWatcher | undefined;

  constructor(
    private readonly source: InputSource,
    private readonly context: CheckContext,
    private readonly tally: Tally,
    private readonly unwrap: UnwrapMode,
    private readonly fingerprints: boolean,
    private readonly budget: SpillBudget,
  ) {
    this.unwrapper = unwrappers[unwrap]({ check: context });
    this.findings = new FindingStore(budget);
    this.line = new LineFindings(this.findings, budget);
  }

  /** From now on, findings are also kept to be taken as they become final. */
  streamed(): void {
    this.live = [];
  }

  /**
   * The findings final since the last call, in reading order: those of every entry framed so far (a
   * line-delimited input's entry is a line, whose findings are all known once it is framed), and,
   * with `atEnd`, those known only at the end.
   */
  takeFinal(atEnd: boolean): Finding[] {
    const taken = this.live ?? [];
    if (this.live) this.live = [];
    if (!atEnd || this.liveLate.length === 0) return taken;
    const late = this.liveLate.sort(byPlace);
    this.liveLate = [];
    return taken.concat(late);
  }

  /**
   * A followed file read again from its start (rotated or truncated): the findings so far end with
   * those known at the end of that reading, and pairing starts afresh.
   */
  restart(): void {
    // Each reading is judged as an input of its own, as its line numbers are.
    this.endReading(false, true);
    this.kinds = noEntries();
    this.earlier.push(this.findings.seal());
    this.unwrapper = unwrappers[this.unwrap]({ check: this.context });
    this.findings = new FindingStore(this.budget);
    this.line = new LineFindings(this.findings, this.budget);
  }

  /** What a baseline matches a record's findings on; computed only when asked for and needed. */
  private identify(place: Place, value: unknown, count: number): Place {
    if (!this.fingerprints || count === 0) return place;
    const error = errorObject(value);
    place.code = error && stringMember(error, 'code');
    place.fingerprint = fingerprint(value);
    return place;
  }

  paired(): boolean {
    return this.unwrapper.paired();
  }

  /** Counters for the progress line; a throwaway object when nobody watches. */
  progress: Progress = { bytes: 0, entries: 0, findings: 0 };

  /** The findings of one record, which share its line: in report order among themselves. */
  private addAll(findings: readonly RecordFinding[], place: Place): void {
    if (findings.length === 1) return this.add(findings[0], place);
    const located = findings.map((finding) => locate(finding, this.source.name, place));
    this.line.startRecord(place.line);
    for (const finding of located.sort(byPlace)) this.line.add(finding);
    if (this.live) for (const finding of located) this.live.push(finding);
    this.progress.findings += located.length;
  }

  /**
   * The findings of one record of a pretty-printed document, each at the value it points at (spec
   * section 8.11), in report order: they all lie within the record's text, so no later record's
   * come before them, and one that shares a line with the record before is sorted there by
   * LineFindings as records on one line are.
   */
  private addPlaced(findings: readonly RecordFinding[], place: Place, places: readonly (ValuePlace | undefined)[]): void {
    const located = findings.map((finding, k) => {
      const placed = locate(finding, this.source.name, place);
      const value = places[k];
      if (value) (placed.location.line = value.line), (placed.location.column = value.column);
      return placed;
    });
    let line = -1;
    for (const finding of located.sort(byPlace)) {
      if (finding.location.line !== line) this.line.startRecord((line = finding.location.line));
      this.line.add(finding);
    }
    if (this.live) for (const finding of located) this.live.push(finding);
    this.progress.findings += located.length;
  }

  private add(finding: RecordFinding | undefined, place: Place, hint?: ParseHint): void {
    if (!finding) return;
    this.line.startRecord(place.line);
    const located = locate(finding, this.source.name, place);
    this.line.add(located, hint);
    this.live?.push(located);
    this.progress.findings++;
  }

  private addLate(finding: RecordFinding | undefined, place: Place): void {
    if (!finding) return;
    const located = locate(finding, this.source.name, place);
    this.findings.appendLate(located);
    if (this.live) this.liveLate.push(located);
    this.progress.findings++;
  }

  /** Framing found, after the fact, that the first parse error deserves a hint (spec section 8.8). */
  hintFirstError(hint: ParseHint): void {
    this.line.hintFirstError(hint);
  }

  /** Takes each framed entry as framing produces it (the checker is framing's sink). */
  push(framed: Framed): void {
    this.watcher?.see(framed);
    this.entries++;
    this.progress.entries++;
    const { kinds } = this;
    kinds.entries++;
    kinds.firstLine ??= framed.line;
    if (framed.kind === 'unparseable') {
      this.tally.addUnparseable();
      this.unwrapper.unreadable(framed.line);
      // A digest of the record, its text, where framing held it: the message quotes it or not
      // (--redact), and a cut-off last line's says so until the next line is written.
      const place = this.identify(at(framed.line, framed.column), framed.text === undefined ? `parse-error:${framed.column ?? 0}:${framed.message}` : `parse-error:${framed.text}`, 1);
      this.add(ruleFinding(this.context, 'parse-error', { message: framed.message }), place, framed.hint);
      return;
    }
    if (framed.kind === 'noise') {
      this.tally.addSkipped();
      kinds.skipped++;
      return;
    }
    const unwrapped = this.unwrapper.unwrap(framed);
    if (unwrapped.kind === 'skipped') {
      this.tally.addSkipped(unwrapped);
      kinds.skipped++;
      if (unwrapped.own === true) kinds.ownSkipped++;
      if (unwrapped.findings.length > 0) this.addAll(unwrapped.findings, this.identify(at(framed.line, undefined, undefined, unwrapped.wrapping), framed.value, unwrapped.findings.length));
      return;
    }
    // Read once, for the rules and the tally alike. Every value framed here is JSON.parse's.
    const facts = factsOf(unwrapped.hasEnvelope ? unwrapped.envelope : undefined, true);
    let findings: readonly RecordFinding[] = unwrapped.findings;
    if (unwrapped.hasEnvelope) {
      const checked = checkFacts(this.context, facts);
      findings = findings.length === 0 ? checked : findings.concat(checked);
    }
    const { tool, sessionId, wrapping } = unwrapped;
    let invalid = false;
    // Indexed: a for-of makes an iterator object for every record.
    for (let i = 0; i < findings.length; i++) if (findings[i]!.severity === 'error') invalid = true;
    this.tally.addRecord(facts, invalid, tool, sessionId);
    kinds.records++;
    if (findings.length === 0) return;
    const place = this.identify(at(framed.line, undefined, tool, wrapping), unwrapped.hasEnvelope ? unwrapped.envelope : framed.value, findings.length);
    const places = framed.starts && unwrapped.hasEnvelope ? valuePlaces(findings, framed.starts, framed.value, unwrapped.envelope) : undefined;
    if (places) this.addPlaced(findings, place, places);
    else this.addAll(findings, place);
  }

  /** The end of one reading of the input: its held line, and the findings known only now. */
  private endReading(readFailed: boolean, reportEmpty: boolean): void {
    this.line.flush();
    // Before the unwrapper's late findings: it sits at the input's first entry, before all of theirs.
    const none = !readFailed && reportEmpty ? noToolResults(this.context, this.kinds) : undefined;
    if (none) this.addLate(none, this.identify(at(this.kinds.firstLine ?? 1), 'no-tool-results', 1));
    for (const late of this.unwrapper.finish()) {
      this.addLate(late.finding, this.identify(at(late.line, undefined, late.tool, late.wrapping), `${late.finding.rule}:${late.finding.message}`, 1));
    }
  }

  finish(readFailed: boolean, reportEmpty: boolean): void {
    this.endReading(readFailed, reportEmpty);
    if (this.entries === 0 && !readFailed && reportEmpty) this.addLate(ruleFinding(this.context, 'empty-input', { message: 'the input holds no record' }), this.identify(at(1), 'empty-input', 1));
  }
}

const maxChunk = 1 << 20;

/**
 * Read buffers of this thread (each maxChunk long) that no read holds, for the next file. A fresh
 * buffer costs a page fault for each of its pages (in the kernel's copy and in the first look at
 * it), and a file larger than one chunk takes three (its first chunk copied out, two to read on into).
 */
const spareBuffers: Buffer[] = [];
const maxSpareBuffers = 4;

function takeBuffer(): Buffer {
  return spareBuffers.pop() ?? Buffer.allocUnsafe(maxChunk);
}

/** Given back once nothing reads from it or into it any more. */
function giveBack(buffer: Buffer): void {
  if (spareBuffers.length < maxSpareBuffers && buffer.length === maxChunk && buffer.byteOffset === 0 && buffer.buffer.byteLength === maxChunk) spareBuffers.push(buffer);
}

/** The buffer small files are read into, one after another. */
let scratch: Buffer | undefined;

/** A file larger than one chunk: its first chunk read, its descriptor open at the byte after it. */
interface OpenFile {
  fd: number;
  first: Buffer;
}

/**
 * A file of /proc or /sys: a regular file to stat, whose reads fall short of its end (a page or so
 * each), so that the first short read is no end: such a file (/proc/kallsyms, say) is read on to its end.
 */
function isPseudoFile(path: string): boolean {
  if (process.platform !== 'linux') return false;
  // Resolved only when it may climb out of the working directory: this runs for every small file.
  const cwd = process.cwd();
  const absolute = path.startsWith('/') ? path : path.startsWith('..') ? resolve(path) : `${cwd === '/' ? '' : cwd}/${path}`;
  return absolute.startsWith('/proc/') || absolute.startsWith('/sys/');
}

/**
 * A file smaller than one chunk is read synchronously into a reused buffer: open, read, close.
 * Without a stat (each one also builds a Stats object with four Dates: for many small files, stats,
 * async hops and their garbage would be most of the time), and without the read that returns
 * nothing: a regular file's read returns less than asked only at its end, which readFileSync trusts
 * its stat for, so one read that falls short ends the file, but one of /proc or /sys (isPseudoFile),
 * which is read on. Only regular files
 * come here; FIFOs and devices, whose reads fall short all the time, are special sources. A file
 * that fills the chunk is read on from there, on the same descriptor; the caller closes it.
 *
 * The small file's bytes are returned in place, a view of the reused buffer: they are the caller's
 * only until this thread reads the next file, which the synchronous fast path of checkUnit keeps to;
 * any other path copies them first (`ownCopy`), so that the common path copies nothing.
 */
function readFile(path: string): Buffer | OpenFile {
  const buffer = (scratch ??= takeBuffer());
  const fd = openSync(path, 'r');
  let handedOver = false;
  try {
    const read = readSync(fd, buffer, 0, maxChunk, null);
    if (read === maxChunk || (read > 0 && isPseudoFile(path))) {
      // The buffer goes with the file (which gives it back when read whole); the next small file
      // takes another.
      handedOver = true;
      scratch = undefined;
      return { fd, first: buffer.subarray(0, read) };
    }
    return buffer.subarray(0, read);
  } finally {
    if (!handedOver) closeSync(fd);
  }
}

/** A small file's bytes (see readFile) made its own, for a path that does not finish with them at once. */
function ownCopy(bytes: Buffer): Buffer {
  return bytes.buffer === scratch?.buffer ? Buffer.from(bytes) : bytes;
}

/** The rest of an open file as a stream, on from where the reads stopped, with its first chunk put back in front. */
function restOfFile({ fd, first }: OpenFile): Readable {
  // No `start`: the stream reads on from the descriptor's position.
  const rest = createReadStream('', { fd, highWaterMark: maxChunk });
  rest.unshift(first);
  return rest;
}

/**
 * A file read whole, or a large one's chunks: plain line-delimited text into buffers used again;
 * anything to decode, or a .json document whose chunks are held until it is parsed, as a stream of
 * its own buffers.
 */
function fileChunks(file: Buffer | OpenFile, framing: Framing, signal: AbortSignal | undefined): Buffer | ChunkSource {
  if (Buffer.isBuffer(file)) return file;
  return framing === 'ndjson' && !needsDecoding(file.first) ? reusedChunks(file.fd, file.first.length, Infinity, signal, file.first) : restOfFile(file);
}

/**
 * Bytes [position, end) of `fd` (to its end, for Infinity), read into two buffers taken in turn,
 * one read ahead while the other is framed: a stream's fresh buffer a chunk would cost a page fault
 * for each of its pages, in the kernel's copy and in the first look at it. A chunk is the consumer's only until it asks for the next, which line framing keeps to
 * (it copies the end of a line it holds): used for plain line-delimited input only. `first`, when
 * given, comes before. Ctrl-C stops it at the next chunk; the descriptor is closed at the end, and
 * the buffers are given back for the next file (`first` too: nobody reads it once this one ends).
 */
async function* reusedChunks(fd: number, position: number, end: number, signal: AbortSignal | undefined, first?: Buffer): AsyncGenerator<Buffer> {
  let [current, next] = [takeBuffer(), takeBuffer()];
  const readInto = (buffer: Buffer, at: number) =>
    new Promise<number>((resolve, reject) => read(fd, buffer, 0, Math.min(maxChunk, end - at), Number.isFinite(end) ? at : null, (error, n) => (error ? reject(error) : resolve(n))));
  const sizeAtStart = Number.isFinite(end) ? 0 : fstatSync(fd).size;
  let pending: Promise<number> | undefined = position < end ? readInto(current, position) : undefined;
  try {
    if (first) yield first;
    while (pending) {
      const n = await pending;
      pending = undefined;
      if (signal?.aborted) throw signal.reason;
      if (n === 0) {
        // Read to its end: a file truncated under the run ends here with fewer bytes than were read
        // (a log rotated by copy and truncate): an input failure, not a last line cut off, as a byte
        // range of it reports, so that the report is the same for any --jobs.
        // (A file of /proc says it holds 0 bytes and reads more: only a file that said it held some.)
        if (!Number.isFinite(end) && sizeAtStart > 0 && fstatSync(fd).size < position) throw new InputDataError(changedWhileRead);
        return;
      }
      const chunk = current.subarray(0, n);
      position += n;
      [current, next] = [next, current];
      if (position < end) pending = readInto(current, position);
      yield chunk;
    }
  } finally {
    // A read still under way writes into a buffer of ours and reads a descriptor not closed yet.
    await pending?.catch(() => undefined);
    closeSync(fd);
    giveBack(current);
    giveBack(next);
    if (first) giveBack(first);
  }
}

const changedWhileRead = 'the file changed while it was read (rotated or truncated?): check a copy that nothing writes to';

/**
 * A byte range opened in its own thread, after the plan measured the file: by then the path may name
 * another file (a log rotated) or a shorter one (truncated), whose bytes would be read as the rest
 * of the first. Either is an input failure, not records.
 */
function openRange(path: string, range: ByteRange, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  let now;
  try {
    now = fstatSync(fd);
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  if ((range.file && (now.dev !== range.file.dev || now.ino !== range.file.ino)) || now.size < range.end) {
    closeSync(fd);
    throw new InputDataError(changedWhileRead);
  }
  return reusedChunks(fd, range.start, range.end, signal);
}

/** The range's bytes, all of them: a file cut short while it is read ends the stream early. */
async function* wholeRange(chunks: AsyncIterable<Buffer>, range: ByteRange): AsyncGenerator<Buffer> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += chunk.length;
    yield chunk;
  }
  if (bytes < range.end - range.start) throw new InputDataError(changedWhileRead);
}

/** The first range, read through decoding like a whole file; Ctrl-C stops it, as a whole file's. */
function firstRange(path: string, range: ByteRange, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  return wholeRange(openRange(path, range, signal), range);
}

/** A later range of a plain UTF-8 file: no BOM or gzip to detect, framed from its first byte. */
async function frameRange(path: string, range: ByteRange, options: FramingOptions, sink: SourceChecker): Promise<number> {
  const framer = new NdjsonFramer({ ...options, inputStart: false });
  for await (const chunk of wholeRange(openRange(path, range, undefined), range)) {
    sink.progress.bytes += chunk.length;
    framer.push(chunk, sink);
  }
  framer.end(sink);
  return framer.lineCount;
}

/** A file streamed from its first byte once more; Ctrl-C destroys the stream, as the first read's. */
function readAgain(path: string, signal: AbortSignal | undefined): Readable {
  const stream = createReadStream(path, { highWaterMark: maxChunk });
  return signal ? addAbortSignal(signal, stream) : stream;
}

/** A library caller's standard input as Buffers; a stream of it is tied to the signal first, as process.stdin is below. */
function callerStdin(stdin: StdinChunks, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  if (!signal) return asBytes(stdin);
  return asBytes('destroy' in stdin ? addAbortSignal(signal, stdin as unknown as Readable) : untilAborted(stdin, signal));
}

/** Counts the raw bytes read, for the progress line. */
async function* counted(chunks: ChunkSource, progress: Progress): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    progress.bytes += chunk.length;
    yield chunk;
  }
}

export interface UnitIo {
  /** A library caller's standard input (the CLI's is process.stdin's Buffers, read directly). */
  stdin?: StdinChunks;
  signal?: AbortSignal;
  progress?: Progress;
  /** Count into this tally (one for a whole single-threaded run) instead of one per unit. */
  tally?: Tally;
  /** The thread's budget of findings held in memory (a fresh one when absent). */
  budget?: SpillBudget;
  /** The result goes to another thread, which holds its findings against its own budget (FindingStore.detach). */
  posted?: boolean;
  /** The input streams (spec section 8.10): its findings are handed over as they become final. */
  live?: LiveUnit;
}

/** Where a streamed input's findings go as they become final; they go to the unit's result too. */
export interface LiveUnit {
  /** Final findings, in reading order; at the end, those known only then (in line order). */
  findings(batch: readonly Finding[]): void;
  /** A followed file is read again from its start: line numbers and pairing start afresh. */
  restart(reason: 'rotated' | 'truncated'): void;
  /** A followed file is open, and read from this line on. */
  following?(line: number): void;
  /** Follow the file (`--follow`) instead of reading it to its end; reading ends at the signal, normally. */
  follow?: { fromStart: boolean };
}

/** The decoded chunks, the findings framed from each handed over before the next is waited for. */
async function* handingOver(chunks: AsyncIterable<Buffer>, checker: SourceChecker, live: LiveUnit): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) {
    yield chunk;
    const final = checker.takeFinal(false);
    if (final.length > 0) live.findings(final);
  }
}

/** The UTF-8 byte order mark, which a followed file may start with (Windows PowerShell 5.1 writes one). */
const utf8Bom = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * A followed file (spec section 8.10), framed as it grows until the signal ends the run. Line numbers
 * count from the file's start; after a restart they, and the pairing, start afresh. Returns the
 * lines of the last reading.
 */
async function frameFollowed(path: string, options: FramingOptions, checker: SourceChecker, live: LiveUnit, signal: AbortSignal): Promise<number> {
  const { followFile } = await import('./sources/follow.js');
  const followed = await followFile(path, live.follow?.fromStart ?? false, signal);
  let offset = followed.lines;
  live.following?.(offset + 1);
  let atStart = offset === 0;
  let framer = new NdjsonFramer(options);
  const sink = { push: (framed: Framed) => checker.push(offset === 0 ? framed : { ...framed, line: framed.line + offset }) };
  const handOver = () => {
    const final = checker.takeFinal(false);
    if (final.length > 0) live.findings(final);
  };
  for await (const event of followed.events) {
    if (event.kind === 'restart') {
      framer.end(sink);
      handOver();
      checker.restart();
      const late = checker.takeFinal(true);
      if (late.length > 0) live.findings(late);
      live.restart(event.reason);
      framer = new NdjsonFramer(options);
      offset = 0;
      atStart = true;
      continue;
    }
    let { chunk } = event;
    if (atStart) {
      if (chunk.subarray(0, 3).equals(utf8Bom)) chunk = chunk.subarray(3);
      atStart = false;
    }
    framer.push(chunk, sink);
    handOver();
  }
  framer.end(sink);
  handOver();
  return framer.lineCount + offset;
}

/** Standard input, refused when it is a zip archive, which only a file can be read as (spec section 8.2). */
async function* notAZip(chunks: ChunkSource): AsyncGenerator<Buffer> {
  let first = true;
  for await (const chunk of chunks) {
    if (first && looksLikeZip(chunk)) throw new InputDataError('standard input is a zip archive, which is read only from a file: save it to a file and name the file');
    first = false;
    yield chunk;
  }
}

/**
 * A bundle's session.json: metadata, no record. Framed as a `.json` document, so that one that does
 * not parse is the parse error any document's would be (and only that reaches the checker); one that
 * parses gives the facts the bundle's cross-checks read.
 */
async function checkSessionFile(chunks: ChunkSource, options: UnitOptions, checker: SourceChecker): Promise<{ lines: number; facts?: SessionFacts }> {
  const { chunks: decoded, from } = await decodeInput(chunks);
  const parts: Buffer[] = [];
  for await (const chunk of decoded) parts.push(Buffer.from(chunk));
  const bytes = Buffer.concat(parts);
  let value: unknown;
  let values = 0;
  const sink = {
    push(framed: Framed) {
      if (framed.kind === 'value') {
        values++;
        value = framed.value;
      } else checker.push(framed);
    },
  };
  const lines = frameBuffer(bytes, 'json', from ? { ...options, decodedFrom: from } : options, sink);
  if (checker.entries === 0 && values === 0) checker.push({ kind: 'unparseable', line: 1, column: 1, message: 'session.json is empty: an evidence bundle writes its session record here' });
  if (checker.entries > 0 || values !== 1) return { lines };
  return { lines, facts: sessionFacts(bytes.toString('utf8'), value) };
}

export async function checkUnit(unit: Unit, context: CheckContext, options: UnitOptions, io: UnitIo = {}): Promise<UnitResult> {
  const { stdin, signal } = io;
  const { source, range } = unit;
  const tally = io.tally ?? new Tally(context.schema.categories, context.registry);
  const checker = new SourceChecker(source, context, tally, options.unwrap ?? 'auto', options.fingerprints ?? false, io.budget ?? new SpillBudget());
  if (io.progress) checker.progress = io.progress;
  const { live } = io;
  const framing = framingFor(source.entry ?? source.path, options.input ?? 'auto');
  // A line-delimited input's entry is a line, final once framed; a document's are framed at its end.
  const streamed = live !== undefined && framing === 'ndjson' && range === undefined;
  if (streamed) checker.streamed();
  let failure: InputFailure | undefined;
  let unread = false;
  let lines = 0;
  let session: SessionFacts | undefined;
  if (source.bundle?.role === 'transcript') checker.watcher = new TranscriptWatcher();
  try {
    const entryChunks = source.entry === undefined ? undefined : () => zipEntryChunks(source.path!, source.entry!, options.maxZipEntryBytes ?? defaultMaxZipEntryBytes);
    if (source.bundle?.role === 'session') {
      const raw = entryChunks ? entryChunks() : source.special ? await readSpecial(source.path!, signal) : fileChunks(readFile(source.path!), 'json', signal);
      ({ lines, facts: session } = await checkSessionFile(Buffer.isBuffer(raw) ? [ownCopy(raw)] : raw, options, checker));
    } else if (entryChunks) {
      const { chunks, from } = await decodeInput(entryChunks(), entryChunks);
      lines = await frameInput(chunks, framing, from ? { ...options, decodedFrom: from } : options, checker);
    } else if (range && range.index > 0) {
      lines = await frameRange(source.path!, range, options, checker);
    } else if (live?.follow && source.path !== undefined && signal) {
      lines = await frameFollowed(source.path, options, checker, live, signal);
    } else {
      const read = source.path === undefined ? (stdin ? callerStdin(stdin, signal) : standardInput()) : range ? firstRange(source.path, range, signal) : source.special ? await readSpecial(source.path, signal) : fileChunks(readFile(source.path), framing, signal);
      const whole = Buffer.isBuffer(read) ? read : undefined;
      const plain = whole && plainUtf8(whole);
      if (whole && plain) {
        // The fast path: a small file in memory that needs no decoding is framed synchronously.
        if (io.progress) io.progress.bytes += whole.length;
        lines = frameBuffer(plain, framing, options, checker);
      } else {
        // Decoding is asynchronous, and the next file this thread reads goes into the same buffer.
        const kept = whole && ownCopy(whole);
        let raw: ChunkSource = kept ? [kept] : (read as Exclude<typeof read, Buffer>);
        // An idle pipe never yields again: aborting destroys the stream so the loop below ends at once.
        if (signal && 'destroy' in raw) raw = addAbortSignal(signal, raw as Readable);
        // Looked at once the stream is tied to the signal, which must reach the stream itself.
        if (source.path === undefined) raw = notAZip(raw);
        if (io.progress) raw = counted(raw, io.progress);
        // A file can be decoded again to recover what corrupt gzip data cost (decode.ts).
        const path = source.path;
        // A FIFO cannot be read from its start twice: opened again, it waits for a writer.
        const reread = path === undefined || range || source.special ? undefined : kept ? () => [kept] : () => readAgain(path, signal);
        const { chunks, from } = await decodeInput(raw, reread);
        lines = await frameInput(streamed ? handingOver(chunks, checker, live) : chunks, framing, from ? { ...options, decodedFrom: from } : options, checker);
      }
    }
  } catch (error) {
    // Not the input's fault (the findings spool could not be written): the run stops with it.
    if (error instanceof UsageError) throw error;
    if (!signal?.aborted) {
      const message = error instanceof InputDataError ? `${source.name}: ${error.message}` : `cannot read ${source.name}: ${describeReadError(source.name, error)}`;
      failure = { source: source.name, message };
      // Faulty data (gzip cut short, a file changed under a range) was read, and its records count.
      unread = (!(error instanceof InputDataError) || error instanceof RefusedEntry) && checker.entries === 0;
    }
  }
  // A range never reports the whole input empty: the run decides that from every range's entries;
  // nor does session.json, metadata whose values count nowhere (spec section 8.2).
  // A followed file read from its current end is no empty input for having had nothing appended.
  const following = live?.follow !== undefined;
  checker.finish(failure !== undefined || (signal?.aborted === true && !following), range === undefined && source.bundle?.role !== 'session' && (!following || live.follow!.fromStart));
  if (streamed) {
    const final = checker.takeFinal(true);
    if (final.length > 0) live.findings(final);
  }
  const findings = io.posted ? checker.findings.detach() : checker.findings.seal();
  return {
    findings,
    ...(!io.tally && { summary: tally.summary() }),
    entries: checker.entries,
    kinds: checker.kinds,
    lines,
    paired: checker.paired(),
    ...(failure && { failure }),
    ...(unread && { unread: true as const }),
    // The signal is how a followed file's reading ends: its report is whole.
    ...(signal?.aborted && !following && { interrupted: true as const }),
    ...(checker.earlier.length > 0 && { earlier: checker.earlier }),
    ...(streamed && { streamed: true as const }),
    ...(session && { bundle: { session } }),
    ...(checker.watcher && !failure && { bundle: { transcript: checker.watcher.facts() } }),
  };
}

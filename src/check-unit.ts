// One unit of work: a whole input, or a byte range of a large line-delimited file. Reads it (a file's
// bytes through src/sources/read-file.ts), frames it, unwraps and checks every entry, and returns its
// findings (in order) and its own summary. The same code runs on the main thread and in worker
// threads; src/run.ts puts the results together.
import type { Readable } from 'node:stream';
import { checkFacts, ruleFinding, type CheckContext } from './checks/check-envelope.js';
import { DuplicateMemberCheck } from './checks/duplicate-members.js';
import { checkedWhole } from './checks/stand-ins.js';
import { errorObject, factsOf, stringMember } from './checks/envelope.js';
import type { CheckOptions } from './context.js';
import { UsageError, describeReadError } from './errors.js';
import { FindingStore, LineFindings, SpillBudget, type StoredFindings } from './findings/store.js';
import { byPlace } from './findings/order.js';
import { valuePlaces } from './findings/value-place.js';
import { loadStream } from './lazy.js';
import { fingerprint } from './fingerprint.js';
import { RecordTexts, recordTextFor, type CapturedRecord } from './findings/record-text.js';
import { frameBuffer, frameInput, framingFor, type FramingOptions } from './framing/index.js';
import { NdjsonFramer } from './framing/ndjson.js';
import { scanPlanFor, textPlanOf } from './checks/record-plan.js';
import type { Parser } from './framing/parser.js';
import { builtWhole } from './unwrap/built-whole.js';
import type { ScanPlan } from './framing/scan.js';
import { RecoveryTracker, type CallPlace } from './recovery/tracker.js';
import { InputDataError, decodeInput, plainUtf8, type ChunkSource } from './sources/decode.js';
import type { InputSource } from './sources/input-source.js';
import { fileChunks, firstRange, laterRange, ownCopy, readAgain, readFile, type ByteRange } from './sources/read-file.js';
import { readSpecial } from './sources/special.js';
import { asBytes, standardInput, untilAborted, type StdinChunks } from './sources/stdin.js';
import { Tally } from './tally.js';
import { noEntries, noToolResults, type EntryKinds } from './tool-results.js';
import type { Finding, Framed, InputFailure, ParseHint, Progress, RecordFinding, Summary, ValuePlace, Wrapping } from './types.js';
import { unwrappers, type UnwrapMode } from './unwrap/index.js';
import { sessionFacts, TranscriptWatcher, type SessionFacts, type TranscriptFacts } from './bundle-checks.js';
import { defaultMaxZipEntryBytes, looksLikeZip, RefusedEntry, zipEntryChunks } from './sources/zip.js';

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

/**
 * The options a unit needs; plain data, so that they can be posted to a worker. `parser`: the
 * process's choice (src/framing/parser.ts), made on the main thread.
 */
export type UnitOptions = Omit<CheckOptions, 'stdin' | 'signal' | 'shard' | 'jobs' | 'stdinFilename'> & { parser?: Parser };

/** Where a record's findings are, and what a baseline matches them on; one shape, filled in place. */
interface Place {
  line: number;
  column: number | undefined;
  tool: string | undefined;
  wrapping: Wrapping | undefined;
  code: string | undefined;
  fingerprint: string | undefined;
  /** The record's text, for the HTML report: each finding gets the span its pointer names. */
  record: CapturedRecord | undefined;
}

function at(line: number, column?: number, tool?: string, wrapping?: Wrapping): Place {
  return { line, column, tool, wrapping, code: undefined, fingerprint: undefined, record: undefined };
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
  if (place.record !== undefined) located.record = recordTextFor(place.record, finding.pointer);
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
  private readonly duplicates: DuplicateMemberCheck;
  /** What the agent did after each failure (spec section 9): per reading, as pairing is. */
  private recovery: RecoveryTracker;

  constructor(
    private readonly source: InputSource,
    private readonly context: CheckContext,
    private readonly tally: Tally,
    private readonly unwrap: UnwrapMode,
    private readonly fingerprints: boolean,
    private readonly budget: SpillBudget,
    private readonly texts: RecordTexts | undefined,
    private readonly textPlan: ScanPlan | undefined,
  ) {
    this.recovery = this.newRecovery();
    this.unwrapper = unwrappers[unwrap]({ check: context, calls: this.recovery, textPlan });
    this.duplicates = new DuplicateMemberCheck(context);
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
    this.recovery = this.newRecovery();
    this.unwrapper = unwrappers[this.unwrap]({ check: this.context, calls: this.recovery, textPlan: this.textPlan });
    this.findings = new FindingStore(this.budget);
    this.line = new LineFindings(this.findings, this.budget);
  }

  private newRecovery(): RecoveryTracker {
    return new RecoveryTracker(this.context, this.tally, {
      current: (finding, place) => this.add(finding, this.callPlace(place)),
      ended: (finding, place) => {
        // Final when its streak ends, at an earlier line: streamed output prints it now (spec section 9).
        const located = locate(finding, this.source.name, this.callPlace(place));
        this.findings.appendLate(located);
        this.live?.push(located);
        this.progress.findings++;
      },
    }, this.fingerprints);
  }

  /** A recovery finding's place: baselines match it on its code and call digest, never its line (spec section 9). */
  private callPlace(call: CallPlace): Place {
    const place = at(call.line, undefined, call.tool, call.wrapping);
    if (this.fingerprints) (place.code = call.code), (place.fingerprint = call.digest);
    return place;
  }

  /** What a baseline matches a record's findings on; computed only when asked for and needed. */
  private identify(place: Place, value: unknown, count: number): Place {
    if (!this.fingerprints || count === 0) return place;
    const error = errorObject(value);
    place.code = error && stringMember(error, 'code');
    place.fingerprint = fingerprint(value);
    return place;
  }

  /** The record's text, for the HTML report, while the thread's share lasts (findings/record-text.ts). */
  private withText(place: Place, value: unknown, findings: readonly RecordFinding[]): Place {
    if (this.texts) place.record = this.texts.value(value, findings);
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

  /** The source text framing gives for the value it pushes next (a line's). */
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
      if (this.texts && framed.text !== undefined) place.record = this.texts.raw(framed.text);
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
      if (unwrapped.truncated === true) this.recovery.truncated();
      this.recovery.entryDone(undefined, framed.line);
      this.tally.addSkipped(unwrapped);
      kinds.skipped++;
      if (unwrapped.own === true) kinds.ownSkipped++;
      if (unwrapped.findings.length > 0) this.addAll(unwrapped.findings, this.withText(this.identify(at(framed.line, undefined, undefined, unwrapped.wrapping), framed.value, unwrapped.findings.length), framed.value, unwrapped.findings));
      return;
    }
    // Read once, for the rules and the tally alike. Every value framed here is JSON.parse's.
    const facts = factsOf(unwrapped.hasEnvelope ? unwrapped.envelope : undefined, true);
    let findings: readonly RecordFinding[] = unwrapped.findings;
    // Found on the text, whose duplicate members the value does not keep; placed in it where it is the input's.
    // What the scanner saw of the line, or of the text block the envelope is in, spares the text's own search.
    const scanned = (framed.noDuplicates === true && unwrapped.envelope === framed.value) || unwrapped.noDuplicates === true;
    const duplicates = unwrapped.hasEnvelope && !scanned ? this.duplicates.findings(framed, unwrapped.envelope, unwrapped.envelopeText) : undefined;
    if (duplicates) findings = findings.concat(duplicates.findings);
    if (unwrapped.hasEnvelope) {
      let checked = checkFacts(this.context, facts);
      if (framed.text !== undefined && framed.textAt === undefined && unwrapped.envelope === framed.value) checked = checkedWhole(this.context, checked, framed.value, framed.text);
      // An envelope in a text block is the scanner's as a line's is (src/framing/scan-text.ts).
      else if (unwrapped.envelopeText !== undefined) checked = checkedWhole(this.context, checked, unwrapped.envelope, unwrapped.envelopeText);
      findings = findings.length === 0 ? checked : findings.concat(checked);
    }
    const { tool, sessionId, wrapping } = unwrapped;
    let invalid = false;
    // Indexed: a for-of makes an iterator object for every record.
    for (let i = 0; i < findings.length; i++) if (findings[i]!.severity === 'error') invalid = true;
    this.tally.addRecord(facts, invalid, tool, sessionId);
    this.recovery.entryDone(facts, framed.line);
    kinds.records++;
    if (findings.length === 0) return;
    const record = unwrapped.hasEnvelope ? unwrapped.envelope : framed.value;
    const place = this.withText(this.identify(at(framed.line, undefined, tool, wrapping), record, findings.length), record, findings);
    let places = framed.starts && unwrapped.hasEnvelope ? valuePlaces(findings, framed.starts, framed.value, unwrapped.envelope) : undefined;
    if (duplicates) {
      places ??= findings.map(() => undefined);
      const first = unwrapped.findings.length;
      for (let k = 0; k < duplicates.places.length; k++) if (duplicates.places[k]) places[first + k] = duplicates.places[k];
    }
    if (places) this.addPlaced(findings, place, places);
    else this.addAll(findings, place);
  }

  /** The end of one reading of the input: its held line, and the findings known only now. */
  private endReading(readFailed: boolean, reportEmpty: boolean): void {
    // A reading cut short (Ctrl-C, a read failure) leaves its last failures cut off, not ended.
    this.recovery.finish(readFailed);
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

/** A later range of a plain UTF-8 file: no BOM or gzip to detect, framed from its first byte. */
async function frameRange(path: string, range: ByteRange, options: FramingOptions, sink: SourceChecker): Promise<number> {
  const framer = new NdjsonFramer({ ...options, inputStart: false });
  for await (const chunk of laterRange(path, range)) {
    sink.progress.bytes += chunk.length;
    framer.push(chunk, sink);
  }
  framer.end(sink);
  return framer.lineCount;
}

/** A library caller's standard input as Buffers; a stream of it is tied to the signal first, as process.stdin is below. */
function callerStdin(stdin: StdinChunks, signal: AbortSignal | undefined): AsyncGenerator<Buffer> {
  if (!signal) return asBytes(stdin);
  return asBytes('destroy' in stdin ? loadStream().addAbortSignal(signal, stdin as unknown as Readable) : untilAborted(stdin, signal));
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
  /** The thread's share of record texts for the HTML report, when the run keeps them (a fresh one when absent). */
  texts?: RecordTexts;
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

/** A run's unit options with its scan plan, made once per run and context (a thread's). */
const withPlans = new WeakMap<UnitOptions, { context: CheckContext; options: UnitOptions & FramingOptions }>();

/**
 * The options a unit frames with: the run's, and the plan its records are scanned with. Made once
 * per run, not per unit: a run's options have many members, and a copy per unit is paid again for
 * every small file of a folder (bench group `small`).
 */
function framingOptionsOf(context: CheckContext, given: UnitOptions): UnitOptions & FramingOptions {
  const made = withPlans.get(given);
  if (made !== undefined && made.context === context) return made.options;
  const plan = scanPlanFor(context, given);
  const options = plan === undefined ? given : { ...given, plan, builtWhole };
  withPlans.set(given, { context, options });
  return options;
}

export async function checkUnit(unit: Unit, context: CheckContext, given: UnitOptions, io: UnitIo = {}): Promise<UnitResult> {
  const options = framingOptionsOf(context, given);
  const { plan } = options;
  const { stdin, signal } = io;
  const { source, range } = unit;
  const tally = io.tally ?? new Tally(context.schema.categories, context.registry);
  const texts = options.recordText === true && !context.redact ? (io.texts ?? new RecordTexts()) : undefined;
  const checker = new SourceChecker(source, context, tally, options.unwrap ?? 'auto', options.fingerprints ?? false, io.budget ?? new SpillBudget(), texts, textPlanOf(plan));
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
        if (signal && 'destroy' in raw) raw = loadStream().addAbortSignal(signal, raw as Readable);
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

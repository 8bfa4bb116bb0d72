// Where a unit's findings wait for the report. A large corpus can have hundreds of thousands of
// findings; holding them as objects until the report is written would make memory grow with the input. A
// store keeps findings in memory (each kind once, then two numbers a finding: HeldFindings) up to a
// budget shared by every store of a thread (a worker's, once posted, count against the main
// thread's), and past it writes them to a temporary file (one per thread, append-only, a JSON array
// of packed findings a line) to be read back, in order, when a formatter walks the report. The
// report stays complete.
//
// Findings arrive in report order (line, column, rule) except those an input only knows at its end
// (unanswered requests, in their own place order): a store of their own holds those, against the same
// budget, and they are merged in as the store is read.
import { closeSync, mkdtempSync, openSync, readSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { removeAtExit, removeNow } from '../at-exit.js';
import { UsageError, describeError } from '../errors.js';
import { hintText } from '../framing/ndjson.js';
import type { Finding, FindingList, Location, ParseHint, RuleId, Severity, Wrapping } from '../types.js';
import { byCodePoint, byPlace, writtenAlike } from './order.js';
import type { RecordText } from './record-text.js';

/**
 * Findings held in memory, in append order: each distinct finding (all of it but its line) once, in
 * `kinds`, and for each finding the index of its kind and its line, in `chunks` (two numbers a
 * finding). Findings repeat (the bench's corpus has a few kinds for many findings). Held as objects,
 * they outlive young collections and the old generation grows with the input, so few could be held
 * and the rest would go through the spool; as numbers, a budget's worth is held.
 *
 * Chunks, not one array that grows: a growing array is copied into a new backing store at each
 * step, which raises peak memory. A
 * store's first chunk holds 16 findings (a folder of many files with a finding or two each), each
 * next one twice as many, up to 4,096.
 */
export interface HeldFindings {
  kinds: Finding[];
  /**
   * Per kind, how many numbers its message leaves out: a kind's message may be a template, `\0`
   * where each number was (messageTemplate), and each finding of it takes its numbers, in order,
   * from `numbers`. Findings that name other lines (spec section 9's) are then one kind, not one each.
   */
  slots: number[];
  chunks: Float64Array[];
  count: number;
  /** Findings in the last chunk. */
  inLast: number;
  /** The numbers of templated messages, in append order, chunked as `chunks` are. */
  numbers: Float64Array[];
  /** Numbers in the last chunk of `numbers`. */
  numbersInLast: number;
}

const firstChunk = 16;
const largestChunk = 4096;

function noneHeld(): HeldFindings {
  return { kinds: [], slots: [], chunks: [], count: 0, inLast: 0, numbers: [], numbersInLast: 0 };
}

/** The head of every store that holds none: never written to (a store makes its own first). */
const emptyHead: HeldFindings = Object.freeze({
  kinds: Object.freeze([]) as unknown as Finding[],
  slots: Object.freeze([]) as unknown as number[],
  chunks: Object.freeze([]) as unknown as Float64Array[],
  count: 0,
  inLast: 0,
  numbers: Object.freeze([]) as unknown as Float64Array[],
  numbersInLast: 0,
});

function holdFinding(head: HeldFindings, kind: number, line: number): void {
  const { chunks } = head;
  let last = chunks[chunks.length - 1];
  if (last === undefined || head.inLast === last.length / 2) {
    chunks.push((last = new Float64Array(2 * (last === undefined ? firstChunk : Math.min(largestChunk, last.length)))));
    head.inLast = 0;
  }
  last[2 * head.inLast] = kind;
  last[2 * head.inLast + 1] = line;
  head.inLast++;
  head.count++;
}

function holdNumbers(head: HeldFindings, numbers: readonly number[]): void {
  const chunks = head.numbers;
  for (const n of numbers) {
    let last = chunks[chunks.length - 1];
    if (last === undefined || head.numbersInLast === last.length) {
      chunks.push((last = new Float64Array(last === undefined ? firstChunk : Math.min(2 * largestChunk, 2 * last.length))));
      head.numbersInLast = 0;
    }
    last[head.numbersInLast++] = n;
  }
}

/**
 * A message's numbers taken out into `numbers`, `\0` left where each was; undefined when it has
 * none, or holds `\0` itself. Only a number JavaScript writes back as it was (digits, no leading
 * zero, at most 15 of them) is taken, so that filled in again the message is the same text.
 */
function messageTemplate(message: string, numbers: number[]): string | undefined {
  let template: string | undefined;
  let from = 0;
  for (let i = 0; i < message.length; ) {
    const c = message.charCodeAt(i);
    if (c === 0) return undefined;
    if (c < 0x30 || c > 0x39) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < message.length && message.charCodeAt(end) >= 0x30 && message.charCodeAt(end) <= 0x39) end++;
    if (end - i <= 15 && (c !== 0x30 || end - i === 1)) {
      template = (template ?? '') + message.slice(from, i) + '\0';
      numbers.push(Number(message.slice(i, end)));
      from = end;
    }
    i = end;
  }
  return template === undefined ? undefined : template + message.slice(from);
}

/** Reads a head's numbers in order, as its findings are walked. */
class NumberCursor {
  private chunk = 0;
  private at = 0;

  /** Each template's parts around its numbers, split once for every finding of its kind. */
  private readonly parts = new Map<string, readonly string[]>();

  constructor(private readonly head: HeldFindings) {}

  /** The message of a kind with `slots` numbers: its template filled with the next of them. */
  message(template: string, slots: number): string {
    if (slots === 0) return template;
    let parts = this.parts.get(template);
    if (parts === undefined) this.parts.set(template, (parts = template.split('\0')));
    let message = parts[0]!;
    for (let p = 1; p < parts.length; p++) message += String(this.next()) + parts[p]!;
    return message;
  }

  private next(): number {
    const { numbers } = this.head;
    let chunk = numbers[this.chunk]!;
    if (this.at === chunk.length) (chunk = numbers[++this.chunk]!), (this.at = 0);
    return chunk[this.at++]!;
  }
}

/** Each held finding's kind and line, in order, and its message. */
function forEachHeld(head: HeldFindings, each: (kind: Finding, line: number, message: string) => void): void {
  const { kinds, slots, chunks } = head;
  const numbers = new NumberCursor(head);
  for (let c = 0; c < chunks.length; c++) {
    const chunk = chunks[c]!;
    const count = c === chunks.length - 1 ? head.inLast : chunk.length / 2;
    for (let i = 0; i < count; i++) {
      const k = chunk[2 * i]!;
      const kind = kinds[k]!;
      each(kind, chunk[2 * i + 1]!, numbers.message(kind.message, slots[k]!));
    }
  }
}

/** `findings` as held findings (a few findings made outside a store). */
export function heldFindings(findings: readonly Finding[]): HeldFindings {
  const head = noneHeld();
  findings.forEach((finding, k) => (head.kinds.push(finding), head.slots.push(0), holdFinding(head, k, finding.location.line)));
  return head;
}

/** A store as plain data: what a worker thread posts back, and what the main thread reads from. */
export interface StoredFindings {
  /** In append order, after those in the spool. */
  head: HeldFindings;
  /**
   * Findings an input knows only at its end (unanswered requests), in place order among themselves:
   * held and spooled as the rest are (a transcript may leave a million requests unanswered), and
   * merged into the rest as it is read.
   */
  late?: StoredFindings;
  /** Findings that came out of place order (merge: an input's in a second report): sorted, merged in as read. */
  unsorted: Finding[];
  /** The temporary file and the byte ranges of it that hold this store's first findings, in order. */
  spool?: { path: string; regions: [number, number][] };
  spooled: number;
  /** Append ordinal of the first parse error that framing hinted at, and its hint. */
  hintAt?: number;
  hint?: ParseHint;
  /** Append ordinal of the first parse error: the prefix hint is worded only on an input's first (spec section 8.8). */
  firstParseError?: number;
  errors: number;
}

/**
 * Findings held in memory per thread before stores write theirs out: two numbers each (HeldFindings).
 * Past it every store of the thread empties its head into the spool, so the cost is
 * paid once per budget.
 */
export const defaultMemoryBudget = 100_000;

/**
 * Distinct findings (kinds) held as objects per thread, at most; past them stores empty into the
 * spool too. Findings that never repeat (a baseline run's carry the record's digest) are each a kind,
 * and held objects outlive young-generation collections: the more are held, the more the old
 * generation's peak, and so RSS, grows with the input; at this budget it stays put (`npm run bench`).
 */
const objectBudget = 1_000;

/**
 * Text is written and read in pieces of 64 KiB: a string of a megabyte lives in V8's large-object
 * space until a full collection, and those would make peak memory grow with the number of findings.
 */
const pieceBytes = 64 * 1024;

/**
 * Findings per spool line: a call per batch writes and reads back faster than a call per finding,
 * and a line stays far below V8's large-object size.
 */
const findingsPerLine = 64;

class Spool {
  readonly path: string;
  private size = 0;

  constructor(dir: string) {
    this.path = join(dir, 'findings.ndjson');
  }

  /**
   * Opened for each write and closed after it (once per budget's worth of findings): a descriptor
   * held open would outlive the run in a process that calls `check()` again, and a worker's would
   * outlive the worker, since threads share the process's descriptors.
   */
  append(packed: (out: (finding: Packed) => void) => void): [number, number] {
    const start = this.size;
    const fd = openSync(this.path, 'a');
    try {
      // One write per piece: a write per finding would cost a syscall each. A line holds an array
      // of up to `findingsPerLine` packed findings: one JSON.stringify (and, read back, one
      // JSON.parse) per batch.
      let text = '';
      let line: Packed[] = [];
      packed((finding) => {
        line.push(finding);
        if (line.length < findingsPerLine) return;
        text += `${JSON.stringify(line)}\n`;
        line = [];
        if (text.length >= pieceBytes) this.write(fd, text), (text = '');
      });
      if (line.length > 0) text += `${JSON.stringify(line)}\n`;
      if (text !== '') this.write(fd, text);
    } finally {
      closeSync(fd);
    }
    return [start, this.size];
  }

  private write(fd: number, text: string): void {
    const bytes = Buffer.from(text, 'utf8');
    writeSync(fd, bytes);
    this.size += bytes.length;
  }
}

/** A run's folder goes when its report does: a process may check many times before it exits. */
const collected = new FinalizationRegistry<string>((dir) => {
  try {
    removeNow(dir);
  } catch {
    // Best effort: what is left goes at exit.
  }
});

function temporaryFolder(): string {
  try {
    const dir = mkdtempSync(join(tmpdir(), 'mcec-result-'));
    removeAtExit(dir);
    return dir;
  } catch (error) {
    throw spoolError(error);
  }
}

/**
 * The temporary folder of one run, made when a thread first spills: each thread's spool is a folder
 * of its own inside it (a worker's outlives the worker, and after Ctrl-C or a worker's failure
 * nobody else knows where it is). Removed when the report that reads it is garbage-collected, or
 * when the process ends, whichever comes first.
 */
export class RunFolder {
  private dir: string | undefined;

  get path(): string {
    return (this.dir ??= temporaryFolder());
  }

  /** Removes the folder, if one was made, once `owner` (the report's findings) is collected. */
  releaseWith(owner: object): void {
    if (this.dir !== undefined) collected.register(owner, this.dir);
  }

  /** Removes the folder now, if one was made: the run failed, and no report reads it. */
  remove(): void {
    if (this.dir === undefined) return;
    try {
      removeNow(this.dir);
    } catch {
      // Best effort: what is left goes at exit.
    }
  }
}

function spoolError(error: unknown): UsageError {
  return new UsageError(`cannot write findings to a temporary file in ${tmpdir()}: ${describeError(error)} (set TMPDIR to a writable folder, or raise --findings-in-memory)`);
}

/** The memory budget of one thread, and the stores that hold findings against it. */
export class SpillBudget {
  private held = 0;
  private kinds = 0;
  private readonly holders = new Set<FindingStore>();
  private spool: Spool | undefined;
  /** Findings held as objects at most: distinct ones in stores, and those of one line waiting to be sorted. */
  readonly objects: number;

  /** `folder`: the run's folder, where this thread's spool goes (else a folder of its own). */
  constructor(
    readonly limit = defaultMemoryBudget,
    private readonly folder?: () => string,
  ) {
    this.objects = Math.min(limit, objectBudget);
  }

  /** The store holds one more finding, of a kind it did not hold before when `newKind`. */
  hold(store: FindingStore, newKind: boolean): void {
    this.holders.add(store);
    if (newKind) this.kinds++;
    this.held++;
    this.spillIfSpent();
  }

  /**
   * Findings a worker held and posted (`detach`), held against this thread's budget from now on, and
   * spilled into this thread's spool when it is spent: the worker's budget let them go.
   */
  adopt(stored: StoredFindings): void {
    if (stored.late) this.adopt(stored.late);
    // detach() posts held findings only from a store that spooled none: a spill here starts this
    // store's spool in this thread's file. (A store with both is left as it is.)
    if (stored.head.count === 0 || stored.spool !== undefined) return;
    const store = new FindingStore(this, stored);
    this.holders.add(store);
    this.held += stored.head.count;
    this.kinds += stored.head.kinds.length;
    this.spillIfSpent();
  }

  /** Past the budget, every store of the thread empties its head into the spool: the cost is paid once per budget. */
  private spillIfSpent(): void {
    if (this.held > this.limit || this.kinds > this.objects) for (const holder of [...this.holders]) holder.spill();
  }

  /** A result the run drops (read again, or unplaceable after Ctrl-C): its findings count no more, and go unread. */
  drop(stored: StoredFindings): void {
    if (stored.late) this.drop(stored.late);
    for (const holder of this.holders) if (holder.holds(stored)) return holder.discard();
  }

  /** The store holds `count` findings (`kinds` kinds) fewer, and none against the budget until it holds one again. */
  release(store: FindingStore, count: number, kinds: number): void {
    this.held -= count;
    this.kinds -= kinds;
    this.holders.delete(store);
  }

  write(findings: readonly Finding[]): { path: string; region: [number, number] } {
    return this.writePacked((out) => findings.forEach((finding) => out(pack(finding))));
  }

  /** Held findings to the spool, packed straight from their kinds: no object per finding. */
  writeHeld(head: HeldFindings): { path: string; region: [number, number] } {
    return this.writePacked((out) =>
      forEachHeld(head, (kind, line, message) => {
        const packed = pack(kind);
        packed[2] = message;
        packed[4] = line;
        out(packed);
      }),
    );
  }

  private writePacked(packed: (out: (finding: Packed) => void) => void): { path: string; region: [number, number] } {
    try {
      this.spool ??= new Spool(this.folder ? mkdtempSync(join(this.folder(), 'thread-')) : temporaryFolder());
      return { path: this.spool.path, region: this.spool.append(packed) };
    } catch (error) {
      throw error instanceof UsageError ? error : spoolError(error);
    }
  }
}

/**
 * A unit's findings as it produces them. Its data object is what the report reads, and stays the
 * store's: when the budget is spent later, a sealed store is still emptied into the spool.
 */
export class FindingStore {
  /** The head's kinds by message, then compared field by field (a message is shared by few kinds); made with the first. */
  private byMessage: Map<string, number[]> | undefined;

  /** `data`: a sealed store's, posted by another thread (SpillBudget.adopt). */
  constructor(
    private readonly budget: SpillBudget,
    private readonly data: StoredFindings = { head: emptyHead, unsorted: [], spooled: 0, errors: 0 },
  ) {}

  /** The store of the findings appended late, made with the first, and the last of them. */
  private late: FindingStore | undefined;
  private lastLate: Finding | undefined;
  /** A hint asked for before the first parse error comes waits here. */
  private pendingHint: ParseHint | undefined;

  /** Marks the first parse error (appended already or still to come) with `hint`, unless one is marked. */
  hintFirstError(hint: ParseHint): void {
    const data = this.data;
    if (data.hintAt !== undefined) return;
    if (data.firstParseError === undefined) this.pendingHint ??= hint;
    else (data.hintAt = data.firstParseError), (data.hint = hint);
  }

  /** The next finding in report order; `hint` marks a parse error that framing may be the cause of. */
  append(finding: Finding, hint?: ParseHint): void {
    const data = this.data;
    if (data.firstParseError === undefined && finding.rule === 'parse-error') {
      data.firstParseError = data.spooled + data.head.count;
      hint ??= this.pendingHint;
    }
    if (hint !== undefined && data.hintAt === undefined) {
      data.hintAt = data.spooled + data.head.count;
      data.hint = hint;
    }
    if (finding.severity === 'error') data.errors++;
    // Most stores (most files of a folder) hold no finding: their head is the shared empty one.
    if (data.head === emptyHead) data.head = noneHeld();
    const { head } = data;
    const { kinds, slots } = head;
    let kind = -1;
    let numbers: number[] | undefined;
    // A finding that carries its record's digest (a baseline run's) or text is a kind of its own: searched
    // for among the kinds of its message, it would cost a search of up to objectBudget a finding.
    if (finding.fingerprint === undefined && finding.record === undefined) {
      const byMessage = (this.byMessage ??= new Map());
      let key = finding.message;
      let known = byMessage.get(key);
      if (known !== undefined) for (let i = 0; i < known.length && kind === -1; i++) if (slots[known[i]!] === 0 && sameKind(kinds[known[i]!]!, finding, key)) kind = known[i]!;
      // A message seen before is found above; one seen only with other numbers, by its template.
      if (kind === -1) {
        const template = messageTemplate(key, (numbers = []));
        if (template !== undefined) {
          key = template;
          known = byMessage.get(key);
          for (let i = 0; known !== undefined && i < known.length && kind === -1; i++) if (slots[known[i]!] === numbers.length && sameKind(kinds[known[i]!]!, finding, key)) kind = known[i]!;
        } else numbers = undefined;
      }
      if (kind === -1) {
        if (known === undefined) byMessage.set(key, (known = []));
        known.push(kinds.length);
      }
      if (kind === -1 && numbers !== undefined) {
        kind = kinds.push(atLine(finding, finding.location.line, '', key)) - 1;
        slots.push(numbers.length);
        holdNumbers(head, numbers);
        holdFinding(head, kind, finding.location.line);
        this.budget.hold(this, true);
        return;
      }
    }
    const newKind = kind === -1;
    if (newKind) (kind = kinds.push(finding) - 1), slots.push(0);
    if (numbers !== undefined) holdNumbers(head, numbers);
    holdFinding(head, kind, finding.location.line);
    this.budget.hold(this, newKind);
  }

  /**
   * A finding known only at the input's end, at an earlier line. Those appended late come in place
   * order among themselves (an input's unanswered requests do); one that does not is held as an
   * object and sorted in.
   */
  appendLate(finding: Finding): void {
    if (this.lastLate !== undefined && byPlace(finding, this.lastLate) < 0) return this.appendUnsorted(finding);
    if (finding.severity === 'error') this.data.errors++;
    this.late ??= new FindingStore(this.budget, (this.data.late = { head: emptyHead, unsorted: [], spooled: 0, errors: 0 }));
    this.late.append(finding);
    this.lastLate = finding;
  }

  /** A finding out of place order, held as an object until the store is read. */
  appendUnsorted(finding: Finding): void {
    if (finding.severity === 'error') this.data.errors++;
    this.data.unsorted.push(finding);
  }

  holds(stored: StoredFindings): boolean {
    return this.data === stored;
  }

  /** Lets the held findings go unwritten: nothing will read them. */
  discard(): void {
    this.budget.release(this, this.data.head.count, this.data.head.kinds.length);
    this.data.head = emptyHead;
    this.byMessage = undefined;
  }

  spill(): void {
    const data = this.data;
    const count = data.head.count;
    const kinds = data.head.kinds.length;
    if (count > 0) {
      const { path, region } = this.budget.writeHeld(data.head);
      if (data.spool) data.spool.regions.push(region);
      else data.spool = { path, regions: [region] };
      data.spooled += count;
      data.head = emptyHead;
      this.byMessage = undefined;
    }
    this.budget.release(this, count, kinds);
  }

  /** The findings, complete and in order. */
  seal(): StoredFindings {
    this.data.unsorted.sort(byPlace);
    this.late?.seal();
    return this.data;
  }

  /**
   * For posting to another thread, which gets a copy and holds it against its own budget (adopt):
   * this store holds nothing after. Findings held go as they are (two numbers each), unless some
   * of the store's are spooled already: then they follow them into the spool, since a store's
   * spool is one file, and the other thread would spill the rest into its own.
   */
  detach(): StoredFindings {
    this.late?.detach();
    if (this.data.spool !== undefined) this.spill();
    this.budget.release(this, this.data.head.count, this.data.head.kinds.length);
    return this.seal();
  }
}

/** Findings of one line that share a column and a rule: spooled runs, then those held. */
interface Bucket {
  column: number;
  rule: RuleId;
  head: Finding[];
  spool: { path: string; regions: [number, number][] } | undefined;
}

/**
 * One line's findings, given record by record, handed to a store in report order (line, column,
 * rule id; stable, so that ties keep the order they came in, as `merge` keeps them). Several
 * records share a line in a `.json` array written on one line, and the report orders their
 * findings across the records. They are held until a record on a later line brings findings, or
 * the input ends; a line with one record needs no sorting. A line of any length (a streamed array
 * on one line) is held against the thread's budget: past it, its findings go to the spool, one run
 * per (column, rule), read back in order when the line ends.
 */
export class LineFindings {
  private readonly held: Finding[] = [];
  private line = 0;
  /** A second record added findings to the held line: they need sorting among themselves. */
  private mixed = false;
  /** The held parse error that framing gave a hint for, which the store marks. */
  private hinted: Finding | undefined;
  private hint: ParseHint | undefined;
  /** Set once records share the line and it holds more findings than the budget. */
  private buckets: Map<string, Bucket> | undefined;
  private bucketsHeld = 0;

  constructor(
    private readonly store: FindingStore,
    private readonly budget: SpillBudget,
  ) {}

  /** The findings of one record are about to come, at `line`: an earlier line's go to the store first. */
  startRecord(line: number): void {
    if (this.held.length === 0 && this.buckets === undefined) this.line = line;
    else if (line !== this.line) this.flush(), (this.line = line);
    else this.mixed = true;
  }

  /** Marks the input's first parse error with `hint`: one held here is marked as it is handed over (FindingStore.hintFirstError). */
  hintFirstError(hint: ParseHint): void {
    this.store.hintFirstError(hint);
  }

  /** The record's next finding, in report order among the record's own. */
  add(finding: Finding, hint?: ParseHint): void {
    if (this.buckets) return this.addToBucket(finding);
    this.held.push(finding);
    if (hint !== undefined && this.hinted === undefined) (this.hinted = finding), (this.hint = hint);
    // Only once records share the line: one record's findings are in report order already and
    // are held whole (a record's size bounds them); bucketing those too would write each past a
    // tiny --findings-in-memory to the spool twice.
    if (this.mixed && this.held.length > this.budget.objects) this.toBuckets();
  }

  /**
   * Only a line that records share goes to buckets, and a framing hint comes only with a parse
   * error of a line-delimited input, whose line holds that one entry: buckets never hold a hint.
   */
  private toBuckets(): void {
    this.buckets = new Map();
    for (const finding of this.held.splice(0)) this.addToBucket(finding);
  }

  private addToBucket(finding: Finding): void {
    const buckets = this.buckets!;
    const column = finding.location.column ?? 0;
    const key = `${column}\0${finding.rule}`;
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = { column, rule: finding.rule, head: [], spool: undefined }));
    bucket.head.push(finding);
    if (++this.bucketsHeld > this.budget.objects) {
      for (const each of buckets.values()) {
        if (each.head.length === 0) continue;
        const { path, region } = this.budget.write(each.head);
        if (each.spool) each.spool.regions.push(region);
        else each.spool = { path, regions: [region] };
        each.head = [];
      }
      this.bucketsHeld = 0;
    }
  }

  /** Hands the held findings to the store, in report order. */
  flush(): void {
    if (this.buckets) return this.flushBuckets();
    const held = this.held;
    if (held.length === 0) return;
    if (this.mixed) held.sort(byPlace);
    for (const finding of held) this.store.append(finding, finding === this.hinted ? this.hint : undefined);
    held.length = 0;
    this.mixed = false;
    this.hinted = this.hint = undefined;
  }

  private flushBuckets(): void {
    const buckets = [...this.buckets!.values()].sort((a, b) => a.column - b.column || byCodePoint(a.rule, b.rule));
    for (const bucket of buckets) {
      if (bucket.spool) for (const finding of readSpool(bucket.spool, 0)) this.store.append(finding);
      for (const finding of bucket.head) this.store.append(finding);
    }
    this.buckets = undefined;
    this.bucketsHeld = 0;
    this.mixed = false;
    this.hinted = this.hint = undefined;
  }
}

/**
 * A finding as the spool holds it: its fields by position, absent ones null, trailing absent ones
 * left off. JSON.parse builds arrays for less than it costs to build objects with keys, and the
 * file is smaller.
 */
type Packed = [
  rule: RuleId,
  severity: Severity,
  message: string,
  source: string,
  line: number,
  column?: number | null,
  pointer?: string | null,
  keyword?: string | null,
  schemaPath?: string | null,
  suggestion?: string | null,
  tool?: string | null,
  wrapping?: Wrapping | null,
  code?: string | null,
  fingerprint?: string | null,
  record?: RecordText | null,
];

function pack(finding: Finding): Packed {
  const { location } = finding;
  const packed: Packed = [
    finding.rule,
    finding.severity,
    finding.message,
    location.source,
    location.line,
    location.column ?? null,
    location.pointer ?? null,
    finding.keyword ?? null,
    finding.schemaPath ?? null,
    finding.suggestion ?? null,
    finding.tool ?? null,
    finding.wrapping ?? null,
    finding.code ?? null,
    finding.fingerprint ?? null,
    finding.record ?? null,
  ];
  while (packed.length > 5 && packed[packed.length - 1] === null) packed.pop();
  return packed;
}

/** Whether `finding` is of `kind` but for its line, `message` (its own, or its template) against the kind's. */
function sameKind(kind: Finding, finding: Finding, message: string): boolean {
  return kind.message === message && writtenAlike(kind, finding, false, false) && kind.code === finding.code && kind.fingerprint === finding.fingerprint && kind.record === finding.record;
}

/**
 * A finding as an object of its own: `kind`'s fields, at `line`, `suffix` added to its message. Field
 * by field: an object spread costs more, on every finding of a later byte range.
 */
function atLine(kind: Finding, line: number, suffix: string, message = kind.message): Finding {
  const { location } = kind;
  const at: Location = { source: location.source, line };
  if (location.column !== undefined) at.column = location.column;
  if (location.pointer !== undefined) at.pointer = location.pointer;
  const finding: Finding = { rule: kind.rule, severity: kind.severity, message: message + suffix, location: at };
  if (kind.keyword !== undefined) finding.keyword = kind.keyword;
  if (kind.schemaPath !== undefined) finding.schemaPath = kind.schemaPath;
  if (kind.suggestion !== undefined) finding.suggestion = kind.suggestion;
  if (kind.tool !== undefined) finding.tool = kind.tool;
  if (kind.wrapping !== undefined) finding.wrapping = kind.wrapping;
  if (kind.code !== undefined) finding.code = kind.code;
  if (kind.fingerprint !== undefined) finding.fingerprint = kind.fingerprint;
  if (kind.record !== undefined) finding.record = kind.record;
  return finding;
}

/** The finding back, `lineOffset` lines further down. */
function unpack(packed: Packed, lineOffset: number): Finding {
  const location: Location = { source: packed[3], line: packed[4] + lineOffset };
  if (packed[5] != null) location.column = packed[5];
  if (packed[6] != null) location.pointer = packed[6];
  const finding: Finding = { rule: packed[0], severity: packed[1], message: packed[2], location };
  if (packed[7] != null) finding.keyword = packed[7];
  if (packed[8] != null) finding.schemaPath = packed[8];
  if (packed[9] != null) finding.suggestion = packed[9];
  if (packed[10] != null) finding.tool = packed[10];
  if (packed[11] != null) finding.wrapping = packed[11];
  if (packed[12] != null) finding.code = packed[12];
  if (packed[13] != null) finding.fingerprint = packed[13];
  if (packed[14] != null) finding.record = packed[14];
  return finding;
}

/** A store's spooled findings, in order; their lines shifted down by `lineOffset` as they are rebuilt. */
function* readSpool(spool: NonNullable<StoredFindings['spool']>, lineOffset: number): Generator<Finding> {
  const fd = openSync(spool.path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(pieceBytes);
    for (const [start, end] of spool.regions) {
      // A chunk may end inside a line, or inside a character: the decoder keeps a cut character's bytes.
      const decoder = new StringDecoder('utf8');
      let carry = '';
      for (let position = start; position < end; ) {
        const read = readSync(fd, buffer, 0, Math.min(buffer.length, end - position), position);
        if (read === 0) throw new Error(`findings spool ${spool.path} ends early`);
        position += read;
        const lines = (carry + decoder.write(buffer.subarray(0, read))).split('\n');
        carry = lines.pop()!;
        for (const line of lines) for (const packed of JSON.parse(line) as Packed[]) yield unpack(packed, lineOffset);
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** How a store reads as part of the report: its lines shifted past earlier byte ranges, its hint worded. */
export interface Placement {
  lineOffset: number;
  /** This store holds its input's first hinted parse error. */
  wordHint: boolean;
}

/**
 * What `JSON.stringify(report)` writes for the findings: all of them, as a walk gives them. Left to
 * itself it would write a list's fields, the store's internals, without a spooled finding among them.
 */
abstract class WalkedList implements FindingList {
  abstract readonly length: number;
  abstract [Symbol.iterator](): Iterator<Finding>;

  toJSON(): Finding[] {
    return Array.from(this);
  }
}

export class StoredList extends WalkedList {
  readonly length: number;

  constructor(
    private readonly stored: StoredFindings,
    private readonly placement: Placement = { lineOffset: 0, wordHint: true },
  ) {
    super();
    this.length = storedCount(stored);
  }

  get errors(): number {
    return this.stored.errors;
  }

  private *appended(): Generator<Finding> {
    const { spool, head, hintAt, hint } = this.stored;
    const { lineOffset, wordHint } = this.placement;
    let ordinal = 0;
    // Read back from the spool, a finding is a new object already placed; one held in memory is
    // made from its kind, a new object too, since every format reads the stored findings again.
    if (spool) {
      for (const finding of readSpool(spool, lineOffset)) {
        const hinted = wordHint && ordinal++ === hintAt;
        yield hinted ? atLine(finding, finding.location.line, hintText[hint!]) : finding;
      }
    }
    const { kinds, slots, chunks } = head;
    const numbers = new NumberCursor(head);
    for (let c = 0; c < chunks.length; c++) {
      const chunk = chunks[c]!;
      const count = c === chunks.length - 1 ? head.inLast : chunk.length / 2;
      for (let i = 0; i < count; i++) {
        const hinted = wordHint && ordinal++ === hintAt;
        const kind = kinds[chunk[2 * i]!]!;
        yield atLine(kind, chunk[2 * i + 1]! + lineOffset, hinted ? hintText[hint!] : '', numbers.message(kind.message, slots[chunk[2 * i]!]!));
      }
    }
  }

  *[Symbol.iterator](): Iterator<Finding> {
    const { late, unsorted } = this.stored;
    const { lineOffset } = this.placement;
    let walk: Iterable<Finding> = this.appended();
    if (late) walk = inPlaceOrder(walk, new StoredList(late, { lineOffset, wordHint: false }));
    if (unsorted.length > 0) walk = inPlaceOrder(walk, unsorted.map((finding) => shifted(finding, lineOffset)));
    yield* walk;
  }
}

/** How many findings a store's data holds, wherever they are. */
export function storedCount(stored: StoredFindings): number {
  return stored.spooled + stored.head.count + stored.unsorted.length + (stored.late ? storedCount(stored.late) : 0);
}

/** Two lists in place order as one; on a tie `first`'s finding comes first. */
function* inPlaceOrder(first: Iterable<Finding>, second: Iterable<Finding>): Generator<Finding> {
  const others = second[Symbol.iterator]();
  let other = others.next();
  for (const finding of first) {
    for (; !other.done && byPlace(other.value, finding) < 0; other = others.next()) yield other.value;
    yield finding;
  }
  for (; !other.done; other = others.next()) yield other.value;
}

/** A copy when it moves: stored findings are read again by every format, so they are never changed in place. */
function shifted(finding: Finding, lineOffset: number): Finding {
  return lineOffset === 0 ? finding : atLine(finding, finding.location.line + lineOffset, '');
}

/** Several lists read one after the other: a report's inputs in command-line order. */
export class ConcatList extends WalkedList {
  readonly length: number;

  constructor(private readonly parts: readonly FindingList[]) {
    super();
    this.length = parts.reduce((n, part) => n + part.length, 0);
  }

  *[Symbol.iterator](): Iterator<Finding> {
    for (const part of this.parts) yield* part;
  }
}

/** A list read through a filter that is decided afresh on every walk (a baseline's matching). */
export class FilteredList extends WalkedList {
  constructor(
    private readonly source: FindingList,
    private readonly keep: () => (finding: Finding) => boolean,
    readonly length: number,
  ) {
    super();
  }

  *[Symbol.iterator](): Iterator<Finding> {
    const keep = this.keep();
    for (const finding of this.source) if (keep(finding)) yield finding;
  }
}

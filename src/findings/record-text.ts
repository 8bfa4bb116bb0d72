// The text of the record a finding is about, for the HTML report: the unwrapped envelope
// pretty-printed as `JSON.stringify(value, null, 2)` writes it, cut at 4 KiB, with the span of the
// member the finding points at. Kept only for a run's first findings (recordTextLimits), so that
// memory and the page stay bounded however many findings a run has.
//
// Each thread takes its share as it checks records (RecordTexts), and the formatter shows the
// report's first findings within the same limits (RecordWindow). A thread checks its units in unit
// order, so the findings the window shows come before its share ran out in every thread: the page
// is the same for any --jobs.
import { pointerToken } from '../json-pointer.js';

/** A finding's record as the HTML report shows it. */
export interface RecordText {
  /** The record, pretty-printed; for a parse error, the line's own text. */
  text: string;
  /** The record went on past `text`. */
  cut: boolean;
  /** UTF-16 offsets in `text` of the member the finding's pointer names (from its key), when the text holds its start. */
  at?: [number, number];
}

export const recordTextLimits = Object.freeze({
  /** Findings that carry their record's text, at most (counted per finding: findings of one record each count). */
  findings: 1_000,
  /** UTF-8 bytes of one record's text. */
  bytesEach: 4 * 1024,
  /** UTF-8 bytes of all of them, each finding's counted. */
  bytesAll: 2 * 1024 * 1024,
});

/** A record printed once, for each of its findings' pointers. */
export interface CapturedRecord {
  text: string;
  cut: boolean;
  spans: ReadonlyMap<string, [number, number]>;
}

/** One thread's share: records are taken while fewer than the limits' findings and bytes are. */
export class RecordTexts {
  private findings = 0;
  private bytes = 0;

  private spent(): boolean {
    return this.findings >= recordTextLimits.findings || this.bytes >= recordTextLimits.bytesAll;
  }

  /** A parsed record and its findings, or undefined once the share is spent. */
  value(value: unknown, findings: readonly { pointer?: string }[]): CapturedRecord | undefined {
    if (this.spent()) return undefined;
    const pointers = new Set<string>();
    for (const finding of findings) if (finding.pointer !== undefined) pointers.add(finding.pointer);
    const captured = prettyPrinted(value, recordTextLimits.bytesEach, pointers);
    this.count(captured.text, findings.length);
    return captured;
  }

  /** A line that did not parse, its own text. */
  raw(text: string): CapturedRecord | undefined {
    if (this.spent()) return undefined;
    const kept = cutBytes(text, recordTextLimits.bytesEach);
    this.count(kept, 1);
    return { text: kept, cut: kept.length < text.length, spans: new Map() };
  }

  private count(text: string, findings: number): void {
    this.findings += findings;
    this.bytes += findings * Buffer.byteLength(text);
  }
}

/** What one finding of a captured record carries: the text, and where its pointer's member is. */
export function recordTextFor(captured: CapturedRecord, pointer: string | undefined): RecordText {
  const at = pointer === undefined ? undefined : captured.spans.get(pointer);
  return at ? { text: captured.text, cut: captured.cut, at } : { text: captured.text, cut: captured.cut };
}

/** The formatter's side: walked in report order, the findings whose record text the report shows. */
export class RecordWindow {
  private findings = 0;
  private bytes = 0;
  private full = false;

  shows(record: RecordText | undefined): boolean {
    if (record === undefined || this.full) return false;
    const bytes = Buffer.byteLength(record.text);
    if (this.findings + 1 > recordTextLimits.findings || this.bytes + bytes > recordTextLimits.bytesAll) {
      this.full = true;
      return false;
    }
    this.findings++;
    this.bytes += bytes;
    return true;
  }
}

/** The longest start of `text` of at most `limit` UTF-8 bytes that parts no surrogate pair. */
export function cutBytes(text: string, limit: number): string {
  if (text.length * 3 <= limit || Buffer.byteLength(text) <= limit) return text;
  let bytes = 0;
  let i = 0;
  for (; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const pair = unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    // A lone surrogate is written as U+FFFD, three bytes.
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (bytes + size > limit) break;
    bytes += size;
    if (pair) i++;
  }
  return text.slice(0, i);
}

interface Frame {
  container: object;
  /** An object's keys; undefined for an array. */
  keys: string[] | undefined;
  next: number;
  pointer: string;
  depth: number;
  /** Where the member's text starts (its key), when its pointer is wanted. */
  start: number | undefined;
}

/**
 * `value` as `JSON.stringify(value, null, 2)` writes it, up to `limit` UTF-8 bytes, and the span of
 * each member `wanted` names. Walked with an explicit stack, since a record may nest deeper than
 * recursion goes, and stopped at the limit, so that a record of megabytes costs no more than its start.
 */
export function prettyPrinted(value: unknown, limit: number, wanted: ReadonlySet<string>): CapturedRecord {
  let text = '';
  let bytes = 0;
  let cut = false;
  const spans = new Map<string, [number, number]>();
  const stack: Frame[] = [];
  const write = (piece: string): boolean => {
    const size = Buffer.byteLength(piece);
    if (bytes + size <= limit) {
      text += piece;
      bytes += size;
      return true;
    }
    text += cutBytes(piece, limit - bytes);
    cut = true;
    return false;
  };
  const close = (pointer: string, start: number | undefined) => {
    if (start !== undefined) spans.set(pointer, [start, text.length]);
  };
  /** Writes a value (a container's opening only); false once the limit is reached. */
  const open = (item: unknown, pointer: string, depth: number, memberStart: number): boolean => {
    const start = wanted.has(pointer) ? memberStart : undefined;
    if (typeof item === 'object' && item !== null) {
      const keys = Array.isArray(item) ? undefined : Object.keys(item);
      const count = keys ? keys.length : (item as unknown[]).length;
      if (count === 0) {
        const ok = write(keys ? '{}' : '[]');
        close(pointer, start);
        return ok;
      }
      stack.push({ container: item, keys, next: 0, pointer, depth, start });
      return write(keys ? '{' : '[');
    }
    // A string of megabytes is cut before it is quoted: what is written of it is cut at the limit anyway.
    const shown = typeof item === 'string' && item.length > limit ? item.slice(0, limit) : item;
    const ok = write(JSON.stringify(shown) ?? 'null');
    close(pointer, start);
    return ok;
  };
  let going = open(value, '', 0, 0);
  while (going && stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const { container, keys } = frame;
    const count = keys ? keys.length : (container as unknown[]).length;
    if (frame.next < count) {
      const index = frame.next++;
      going = write(`${index > 0 ? ',' : ''}\n${indent(frame.depth + 1, limit)}`);
      if (!going) break;
      const memberStart = text.length;
      if (keys) {
        const key = keys[index]!;
        going = write(`${JSON.stringify(key)}: `) && open((container as Record<string, unknown>)[key], `${frame.pointer}/${pointerToken(key)}`, frame.depth + 1, memberStart);
      } else {
        going = open((container as unknown[])[index], `${frame.pointer}/${index}`, frame.depth + 1, memberStart);
      }
    } else {
      stack.pop();
      going = write(`\n${indent(frame.depth, limit)}${keys ? '}' : ']'}`);
      close(frame.pointer, frame.start);
    }
  }
  // Members still open at the cut are highlighted to its end.
  if (cut) for (const frame of stack) if (frame.start !== undefined && !spans.has(frame.pointer)) spans.set(frame.pointer, [frame.start, text.length]);
  return { text, cut, spans };
}

function indent(depth: number, limit: number): string {
  return ' '.repeat(Math.min(2 * depth, limit + 1));
}

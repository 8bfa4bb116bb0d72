// Pieces every format shares.
import { cutText, loneSurrogate } from '../text.js';
import type { Finding, Report } from '../types.js';
import type { FormatOptions } from './options.js';

/** A finding's message with its suggestion, as every text format shows it. */
export function messageWithSuggestion(finding: Pick<Finding, 'message' | 'suggestion'>): string {
  return finding.suggestion === undefined ? finding.message : `${finding.message} (did you mean "${finding.suggestion}"?)`;
}

/**
 * GitHub's runner reads a line of a job's log as a workflow command when it starts with `::` (after
 * white space), and, in the legacy form it still parses for every command, when it holds `##[`
 * anywhere: `##[stop-commands]token` in a code or a file name switches off every annotation after
 * it, `##[add-mask]` hides text, `##[error]` forges one. A report printed in a CI log quotes the data,
 * so each format that may be printed there writes those two openings with an escape of its own
 * (`bracket` for the `[`, `colon` for the first `:`), which its readers take as the same text.
 * Only data can hold them: no format writes either itself.
 */
export function withoutCommands(text: string, bracket: string, colon?: string): string {
  let out = text.includes('##[') ? text.replaceAll('##[', `##${bracket}`) : text;
  if (colon !== undefined && out.includes('::')) out = out.replace(/^([^\S\n]*):(?=:)/gm, `$1${colon}`);
  return out;
}

/** `withoutCommands` on each piece of a JSON text: `[` as `\u005b` inside a string (where `#` can only be) is the same string. */
export function* jsonWithoutCommands(pieces: Iterable<string>): Generator<string> {
  for (const piece of pieces) yield withoutCommands(piece, '\\u005b');
}

/**
 * Each listed finding's message as a text format shows it: with its suggestion, and with its JSON
 * Pointer where another finding of the same rule on the same line says the same (two warnings'
 * codes, two images in one observation), which read as one line twice. Findings of a line are
 * adjacent in report order.
 */
export function listedMessages(listed: readonly Finding[]): string[] {
  const said = listed.map((finding) => messageWithSuggestion(finding));
  const alike = (a: number, b: number) => {
    const x = listed[a];
    const y = listed[b];
    return x !== undefined && y !== undefined && x.location.line === y.location.line && x.rule === y.rule && said[a] === said[b] && x.location.source === y.location.source;
  };
  return said.map((text, i) => {
    const { pointer } = listed[i]!.location;
    if (pointer === undefined || !(alike(i, i - 1) || alike(i, i + 1))) return text;
    // A pointer names a property of the record, which may be of any length (as JUnit cuts it).
    return `${text} (at ${pointer === '' ? 'the envelope' : pointer.length > 200 ? `${cutText(pointer, 199)}…` : pointer})`;
  });
}

export interface SourceGroup {
  source: string;
  /** The first `maxListed` findings of the input (all when it is 0). */
  listed: Finding[];
  /** How many more the input has. */
  rest: number;
}

/**
 * Findings grouped by input, in report order (findings of one input are adjacent), keeping only
 * the listed ones: the report may hold more findings than memory does.
 */
export function* listedBySource(findings: Iterable<Finding>, maxListed: number): Generator<SourceGroup> {
  let group: SourceGroup | undefined;
  for (const finding of findings) {
    const source = finding.location.source;
    if (group?.source !== source) {
      if (group) yield group;
      group = { source, listed: [], rest: 0 };
    }
    if (maxListed === 0 || group.listed.length < maxListed) group.listed.push(finding);
    else group.rest++;
  }
  if (group) yield group;
}

/** Stands for the streamed array in a value; known by identity, so that no string of the data can pass for it. */
const placeholder: readonly unknown[] = Object.freeze([]);

/**
 * Items stringified in one call: a call per batch costs less than a call per item (larger batches
 * gain nothing more), and a batch's text stays far below V8's large-object size.
 */
const batchSize = 64;

/**
 * The text of `JSON.stringify(value, null, 2)`, where `value` holds `placeholder()` in place of one
 * long array whose items are streamed a batch at a time: the same bytes, never the whole text at once.
 */
/**
 * How streamJson may write an item itself: its text as it stands in the array, which `stringified`
 * gives for any value (JSON.stringify's, indented for that place). A format whose items repeat can
 * keep texts and write an item for a fraction of a JSON.stringify call.
 */
export type ItemWriter<T> = (item: T, stringified: (value: unknown) => string) => string;

export function* streamJson<T>(value: unknown, items: Iterable<T>, write?: ItemWriter<T>): Generator<string> {
  // The array is written as a marker string, whose place in the text is where the items go. A
  // code or a sessionId may hold any fixed marker, which would then be found in the data first: a
  // marker found twice is drawn again.
  let text = '';
  let marker = '';
  let at = -1;
  for (let draw = 0; ; draw++) {
    const candidate = `\u0000items ${draw}\u0000`;
    text = JSON.stringify(value, (_key, member: unknown) => (member === placeholder ? candidate : member), 2);
    marker = JSON.stringify(candidate);
    at = text.indexOf(marker);
    if (at === -1) throw new Error('streamJson(): the value holds no streamedArray()');
    if (text.indexOf(marker, at + 1) === -1) break;
  }
  const indent = /^ */.exec(text.slice(text.lastIndexOf('\n', at) + 1))![0];
  // Items are stringified nested as deep as the array, so that JSON.stringify indents them as they
  // stand in the report; the brackets of that nesting are cut off again.
  const depth = indent.length / 2 + 1;
  let open = '';
  let close = '';
  for (let level = 0; level < depth; level++) {
    open += `${'  '.repeat(level)}[\n`;
    close = `\n${'  '.repeat(level)}]${close}`;
  }
  const inPlace = (list: unknown[]): string => {
    let nested: unknown = list;
    for (let level = 1; level < depth; level++) nested = [nested];
    const part = JSON.stringify(nested, null, 2);
    return part.slice(open.length, part.length - close.length);
  };
  let first = true;
  const separated = (part: string): string => {
    const piece = `${first ? '\n' : ',\n'}${part}`;
    first = false;
    return piece;
  };
  yield `${text.slice(0, at)}[`;
  if (write) {
    const stringified = (item: unknown): string => inPlace([item]);
    let written = '';
    let count = 0;
    for (const item of items) {
      written += separated(write(item, stringified));
      if (++count === batchSize) yield written, (written = ''), (count = 0);
    }
    if (written !== '') yield written;
  } else {
    let batch: unknown[] = [];
    for (const item of items) {
      batch.push(item);
      if (batch.length === batchSize) yield separated(inPlace(batch)), (batch = []);
    }
    if (batch.length > 0) yield separated(inPlace(batch));
  }
  yield `${first ? '' : `\n${indent}`}]${text.slice(at + marker.length)}\n`;
}

/**
 * What a value holds where `streamJson` puts the streamed array. Typed as the array it stands for
 * (a cast: it is an empty frozen array) so that the value keeps the shape of the format's own types.
 */
export function streamedArray<T>(): T[] {
  return placeholder as unknown as T[];
}

export function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): Generator<U> {
  for (const item of items) yield map(item);
}

// C0 and C1 controls, the bidirectional controls that can make text read in another order than
// it is stored ("Trojan Source", U+061C and U+200E/F among them), and characters that show as
// nothing (U+00AD, U+180E, U+200B, U+2060-2064, U+FEFF, U+FFF9-FFFB, the tag characters
// U+E0000-E007F): two codes that differ by one of them print alike; U+2028/U+2029, which
// some viewers break lines at; and lone surrogates, half a character that no UTF-8 holds (written
// out, one becomes U+FFFD, and a code or file name reads as another; messages quote it as `\ud800`).
// Report data comes from whatever produced the records. U+200C/D stay: emoji sequences and several
// scripts need them.
const hidden = '\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff\\ufff9-\\ufffb';
const tag = '\\udb40[\\udc00-\\udc7f]';
const unprintable = new RegExp(`[\\u0000-\\u001f${hidden}]|${tag}|${loneSurrogate.source}`);
const unprintables = new RegExp(unprintable.source, 'g');
/** The same, less the tab and the line breaks: for formats that write those their own way (GitHub's %0A, XML's &#10;). */
const unprintableInLines = new RegExp(`[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f${hidden}]|${tag}|${loneSurrogate.source}`);
const unprintablesInLines = new RegExp(unprintableInLines.source, 'g');

/** Each UTF-16 unit as a `\u001b` escape (a tag character is two). */
function escaped(chars: string): string {
  let text = '';
  for (let i = 0; i < chars.length; i++) text += `\\u${chars.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return text;
}

/**
 * Report data as text for a person: control characters as `\u001b` escapes. Raw, an error code
 * read from a log could clear the terminal, recolour or forge lines of the report, or hide itself.
 */
export function printable(text: string): string {
  return unprintable.test(text) ? text.replace(unprintables, escaped) : text;
}

/** printable(), keeping tabs and line breaks, for a format that escapes them itself. */
export function printableLines(text: string): string {
  return unprintableInLines.test(text) ? text.replace(unprintablesInLines, escaped) : text;
}

/**
 * A name from the data (code, session, tool, category) for an aligned column: printable, and cut to
 * 60 characters, since the widest name sets the column's width (a long code would push every count
 * of its table as far right).
 */
export function columnName(text: string): string {
  // An empty code, session or tool is a row of its own, not a blank one that reads as a glitch.
  if (text === '') return '""';
  const shown = printable(text);
  if (shown.length <= 60) return shown;
  // Cut by characters of the text, not of its escapes: `\u001b` cut after `\u001` reads as something
  // else, and a surrogate pair cut in two is no character at all.
  let cut = '';
  for (const char of text) {
    const piece = printable(char);
    if (cut.length + piece.length > 59) break;
    cut += piece;
  }
  return `${cut}…`;
}

/**
 * The length of the longest of `texts`, at least `least`. A loop: `Math.max(...lengths)` passes
 * every length as an argument, and past V8's limit of them (distinct codes, or findings listed with
 * --max-listed 0) the call overflows the stack.
 */
export function widest(texts: Iterable<string>, least = 0): number {
  let width = least;
  for (const text of texts) if (text.length > width) width = text.length;
  return width;
}

/** What people's formats say when the warnings fail the run (`--max-warnings`), or undefined. */
export function tooManyWarnings(report: Report, options: FormatOptions): string | undefined {
  const { maxWarnings } = options;
  return maxWarnings !== undefined && report.summary.warnings > maxWarnings ? `more than --max-warnings ${maxWarnings}` : undefined;
}

/**
 * What a headline adds when the report does not cover every input (exit 2 or 130): "✅ no problems
 * in 1 input" over a run that could not read its second input read as a pass.
 */
export function notCovered(report: Report): { text: string; unread: boolean } | undefined {
  const unread = report.summary.unreadable?.length ?? 0;
  const parts = [...(unread > 0 ? [`${unread} input${unread === 1 ? '' : 's'} not read`] : []), ...(report.summary.interrupted ? ['interrupted'] : [])];
  return parts.length === 0 ? undefined : { text: parts.join(', '), unread: unread > 0 };
}

/** What people's formats say of a report of an interrupted run. */
export const interruptedText = "interrupted: Ctrl-C (or the caller's signal) stopped the run, so this report covers only what was read before it";

/** A report record's own entry: keys are data, and `record["constructor"]` is Object's otherwise. */
export function ownEntry<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * A count map's entries most frequent first, ties by code point, as the tally made it: an object
 * puts integer-like names (`"404"`) before the rest whatever their count, which would list a code
 * seen once above one seen a thousand times.
 */
export function byCount(counts: Readonly<Record<string, number>>): [string, number][] {
  return Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
}

/** A recovery row's next tools as a table shows them (spec section 9): the top three, ties by code point. */
export function topNextTools(next: Readonly<Record<string, number>>): [string, number][] {
  return byCount(next).slice(0, 3);
}

/** `path:line` or `path:line:column`, as people read a finding's place. */
export function placeOf(finding: Finding): string {
  const { source, line, column } = finding.location;
  return column === undefined ? `${source}:${line}` : `${source}:${line}:${column}`;
}

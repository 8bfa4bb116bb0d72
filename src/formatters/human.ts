// `--format human`: findings grouped by input as `path:line:col  severity  message  rule`, then a
// summary a person takes in at a glance. A pure function of the report; colour is passed in.
import { Chalk, type ChalkInstance } from 'chalk';
import type { Finding, Report } from '../types.js';
import type { FormatOptions } from './options.js';
import { byCount, columnName, interruptedText, notCovered, tooManyWarnings, listedMessages, ownEntry, placeOf, printable, topNextTools, widest, withoutCommands } from './common.js';
import { reportFindings, type StreamWriter } from './streamed.js';

const barWidth = 24;
const topCodes = 5;
/** Rows of names (unknown codes, categories not in the schema, tools) a list shows, as in Markdown: a corpus may invent a code a record. */
const maxNameRows = 100;

function more(count: number, c: ChalkInstance): string {
  return c.dim(`  … and ${count} more (the JSON report lists them all)`);
}

/** Listed findings of one input, one line each, aligned among themselves. */
function listedLines(listed: readonly Finding[], c: ChalkInstance): string[] {
  return findingLines(listed, listed.map(placeOf), listedMessages(listed), c);
}

/**
 * A line per finding, `place  severity  tool: message  rule`, the places padded to one width: the
 * human format's, and the matchers' failure message's (src/matchers.ts), whose place is a pointer.
 */
export function findingLines(findings: readonly Pick<Finding, 'severity' | 'tool' | 'rule'>[], placesGiven: readonly string[], messages: readonly string[], c: ChalkInstance): string[] {
  const places = placesGiven.map(printable);
  const placeWidth = widest(places);
  return findings.map((f, i) => {
    const severity = f.severity === 'error' ? c.red('error  ') : c.yellow('warning');
    const tool = f.tool === undefined ? '' : `${c.cyan(columnName(f.tool))}: `;
    return `${c.dim(places[i]!.padEnd(placeWidth))}  ${severity}  ${tool}${printable(messages[i]!)}  ${c.dim(f.rule)}`;
  });
}

/** An input's block ends with a blank line, after "and N more" when it listed fewer than it has. */
function blockEnd(source: string, rest: number, c: ChalkInstance): string {
  return rest > 0 ? `${c.dim(`… and ${rest} more in ${printable(source)} (--max-listed 0 lists all)`)}\n\n` : '\n';
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function headline(report: Report, c: ChalkInstance, options: FormatOptions): string {
  const { errors, warnings, inputs } = report.summary;
  const problems = errors + warnings;
  const uncovered = notCovered(report);
  const where = `in ${plural(inputs, 'input')}${uncovered === undefined ? '' : ` (${uncovered.text})`}`;
  const unread = uncovered?.unread === true;
  // Spec section 8.5: a run that checked no record has passed nothing, and says so in place of a pass.
  const none = report.summary.records === 0;
  const verdict = none ? `no tool results found ${where}` : `no problems ${where}`;
  if (problems === 0 && uncovered === undefined && !none) return c.green(`✔ ${verdict}`);
  if (problems === 0) return unread ? c.red.bold(`✖ ${verdict}`) : c.yellow.bold(`⚠ ${verdict}`);
  const over = tooManyWarnings(report, options);
  const text = `✖ ${plural(problems, 'problem')} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}${over === undefined ? '' : `, ${over}`})${none ? `: no tool results found` : ''} ${where}`;
  return errors > 0 || over !== undefined || unread ? c.red.bold(text) : c.yellow.bold(text);
}

/**
 * What of `skipped` the summary can name: a JSON-RPC error response is skipped like a request, yet
 * it is a call that failed below the envelope, which "3 skipped" alone would hide from a person reading.
 */
function skippedParts(s: Report['summary']): string {
  const parts = [
    ...(s.protocolErrors > 0 ? [plural(s.protocolErrors, 'JSON-RPC error response')] : []),
    ...(s.truncated > 0 ? [plural(s.truncated, 'truncation marker')] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** Spec section 8.8: an input of log lines with a prefix before their JSON, read without --extract. */
export function extractHintText(source: string): string {
  return `hint      ${source}: log lines with a prefix before their JSON? check it with --extract, which finds the object in each line`;
}

function counts(report: Report, c: ChalkInstance): string[] {
  const s = report.summary;
  const pairs = (entries: [string, number][]) => entries.map(([k, v]) => `${c.bold(String(v))} ${k}`).join('  ');
  return [
    `records   ${pairs([['checked', s.records], ['valid', s.valid], ['invalid', s.invalid], ['unparseable', s.unparseable], ['skipped', s.skipped]])}${skippedParts(s)}`,
    `outcomes  ${pairs([['ok', s.outcomes.ok], ['failed', s.outcomes.failed], ['unknown', s.outcomes.unknown]])}`,
    ...(s.baseline ? [`baseline  ${pairs([[s.baseline.suppressed === 1 ? 'known finding suppressed' : 'known findings suppressed', s.baseline.suppressed], [s.baseline.stale === 1 ? 'entry no longer found' : 'entries no longer found', s.baseline.stale]])}`] : []),
    ...(s.interrupted ? [c.yellow.bold(interruptedText)] : []),
    ...(s.unreadable ?? []).map((failure) => c.red.bold(`unreadable: ${printable(failure.message)}`)),
    ...(report.extractHints ?? []).map((source) => c.yellow(extractHintText(printable(source)))),
  ];
}

function categoryChart(report: Report, c: ChalkInstance): string[] {
  // A --schema's category names are data too: an ESC in one reached the terminal raw.
  const entries = Object.entries(report.summary.categories).map(([name, n]): [string, number] => [columnName(name), n]);
  const invalid = byCount(report.summary.invalidCategories).map(([name, n]): [string, number] => [columnName(name), n]);
  if (entries.length === 0 && invalid.length === 0) return [];
  let max = 1;
  for (const [, n] of [...entries, ...invalid]) if (n > max) max = n;
  const shownInvalid = invalid.slice(0, maxNameRows);
  const width = widest([...entries, ...shownInvalid].map(([name]) => name));
  const bar = (n: number) => (n === 0 ? c.dim('·') : c.cyan('█'.repeat(Math.max(1, Math.round((n / max) * barWidth)))));
  const lines = ['categories'];
  for (const [name, n] of entries) lines.push(`  ${(n === 0 ? c.dim(name.padEnd(width)) : name.padEnd(width))}  ${bar(n)} ${n}`);
  for (const [name, n] of shownInvalid) lines.push(`  ${c.red(name.padEnd(width))}  ${bar(n)} ${n} ${c.red('(not a category of the schema)')}`);
  if (invalid.length > shownInvalid.length) lines.push(more(invalid.length - shownInvalid.length, c));
  return lines;
}

function codeList(title: string, codes: Record<string, number>, suggestions: Record<string, string>, c: ChalkInstance, limit = maxNameRows): string[] {
  const entries = byCount(codes);
  if (entries.length === 0) return [];
  const shown = entries.slice(0, limit).map(([code, n]) => ({ code, n, name: columnName(code) }));
  const width = widest(shown.map(({ name }) => name));
  const lines = [title];
  for (const { code, n, name } of shown) {
    const suggestion = ownEntry(suggestions, code);
    lines.push(`  ${name.padEnd(width)}  ${String(n).padStart(4)}${suggestion === undefined ? '' : c.dim(`  did you mean "${printable(suggestion)}"?`)}`);
  }
  if (shown.length < entries.length) lines.push(limit === topCodes ? c.dim(`  … and ${entries.length - shown.length} more`) : more(entries.length - shown.length, c));
  return lines;
}

const maxSessions = 10;

/** A small aligned table: a title, a header row, then rows of a name and numbers. */
function table(title: string, header: string[], data: [string, number[]][], c: ChalkInstance): string[] {
  const rows = data.map(([name, values]): [string, number[]] => [columnName(name), values]);
  const nameWidth = widest(rows.map(([name]) => name), 4);
  const widths = header.map((h, i) => widest(rows.map(([, values]) => String(values[i])), h.length));
  const line = (name: string, cells: string[]) => `  ${name.padEnd(nameWidth)}  ${cells.map((cell, i) => cell.padStart(widths[i]!)).join('  ')}`;
  return [title, c.dim(line('', header)), ...rows.map(([name, values]) => line(name, values.map(String)))];
}

function toolTable(report: Report, c: ChalkInstance): string[] {
  const tools = report.summary.tools;
  if (!tools) return [];
  const rows = Object.entries(tools).map(([name, t]): [string, number[]] => [name, [t.records, t.ok, t.failed, t.unknown]]);
  const lines = table('tools', ['records', 'ok', 'failed', 'unknown'], rows.slice(0, maxNameRows), c);
  if (rows.length > maxNameRows) lines.push(more(rows.length - maxNameRows, c));
  return lines;
}

function sessionTable(report: Report, c: ChalkInstance): string[] {
  const sessions = report.summary.sessions;
  if (!sessions) return [];
  const entries = Object.entries(sessions).sort(([a, x], [b, y]) => y.records - x.records || (a < b ? -1 : a > b ? 1 : 0));
  const rows = entries.slice(0, maxSessions).map(([id, s]): [string, number[]] => [id, [s.records, s.ok, s.failed, s.unknown]]);
  const lines = table('sessions', ['records', 'ok', 'failed', 'unknown'], rows, c);
  if (entries.length > maxSessions) lines.push(c.dim(`  … and ${entries.length - maxSessions} more`));
  return lines;
}

/** What the agent did after each category's failures (spec section 9): the counts, then the top three next tools. */
function recoveryTable(report: Report, c: ChalkInstance): string[] {
  const recovery = report.summary.recovery;
  if (!recovery) return [];
  const entries = Object.entries(recovery);
  const rows = entries.slice(0, maxNameRows).map(([category, r]): [string, number[]] => [category, [r.failures, r.sameCall, r.changedArguments, r.otherTool, r.end, r.cutOff]]);
  const lines = table('recovery', ['failures', 'same call', 'changed args', 'other tool', 'end', 'cut off'], rows, c);
  const next = entries.slice(0, maxNameRows).map(([, r]) => topNextTools(r.next).map(([tool, n]) => `${columnName(tool)} ${n}`).join(', '));
  lines[1] += c.dim('  next');
  for (let k = 0; k < next.length; k++) if (next[k] !== '') lines[k + 2] += `  ${next[k]}`;
  if (entries.length > maxNameRows) lines.push(more(entries.length - maxNameRows, c));
  return lines;
}

/**
 * The human format as a stream (spec section 8.10): each input's findings, then the summary. Fed a
 * finished report, a whole input's listed findings are one batch, aligned together.
 */
export function humanWriter(options: FormatOptions): StreamWriter {
  const c = new Chalk({ level: options.color ? 1 : 0 });
  // `\u005b` and `\u003a` as printable() shows other characters the data may not print as they are.
  const safe = (text: string) => withoutCommands(text, '\\u005b', '\\u003a');
  return {
    maxListed: options.maxListed,
    shows: (finding) => !options.quiet || finding.severity === 'error',
    listed: (_source, findings) => safe(listedLines(findings, c).map((line) => `${line}\n`).join('')),
    inputEnd: (source, rest) => safe(blockEnd(source, rest, c)),
    note: (source, text) => safe(`${c.dim(`${printable(source)}: ${printable(text)}`)}\n`),
    hint: (source, text) => safe(`${c.yellow(`${printable(source)}: ${text}`)}\n`),
    summary: (report) => safe(summaryText(report, c, options)),
  };
}

export function* formatHuman(report: Report, options: FormatOptions): Generator<string> {
  const writer = humanWriter(options);
  // Each input's block as soon as it is complete: the report may hold more findings than memory.
  yield* reportFindings(writer, report.findings);
  yield writer.summary(report);
}

function summaryText(report: Report, c: ChalkInstance, options: FormatOptions): string {
  const blocks: string[][] = [];
  const { summary, suggestions } = report;
  blocks.push([headline(report, c, options), ...counts(report, c)]);
  const chart = categoryChart(report, c);
  if (chart.length > 0) blocks.push(chart);
  for (const section of [toolTable(report, c), sessionTable(report, c), recoveryTable(report, c)]) if (section.length > 0) blocks.push(section);
  const codes = [
    ...codeList(`top codes`, summary.codes, {}, c, topCodes),
    ...codeList('unknown error codes', summary.unknownCodes, suggestions.codes, c),
    ...codeList('unknown warning codes', summary.unknownWarningCodes, suggestions.warningCodes, c),
  ];
  if (codes.length > 0) blocks.push(codes);
  return `${blocks.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}

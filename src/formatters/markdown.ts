// `--format markdown`: a job summary for $GITHUB_STEP_SUMMARY (GitHub Flavored Markdown, with a
// Mermaid chart, which GitHub renders in summaries). Totals, distributions, unknown codes, then the
// first findings of each input, at most --max-listed.
// Tables: https://github.github.com/gfm/#tables-extension-
// Mermaid pie: https://mermaid.js.org/syntax/pie.html
import { cutText } from '../text.js';
import type { Report } from '../types.js';
import type { FormatOptions } from './options.js';
import { byCount, interruptedText, notCovered, tooManyWarnings, listedBySource, listedMessages, ownEntry, placeOf, printable, topNextTools } from './common.js';

/**
 * Cell text is report data, not Markdown. Backslashes and ASCII punctuation that starts inline
 * markup are backslash-escaped (GFM 2.4); `|` must be, or it ends the cell (GFM 4.10); `&`, `<`
 * and `>` become entities so that no value renders as HTML or as a character reference; a line
 * break would end the row, so it becomes <br>; other control characters are shown as escapes. A
 * file name's line breaks are escapes too (printable() before the cell): as <br>, `n\nl.jsonl`
 * and `n\rl.jsonl` read alike, and neither as the name it is.
 * GFM also turns `https://…`, `www.…` and `a@b.example` in plain text into links ("extended
 * autolinks"), so a code or detail from a record would be a link in the job summary. A backslash before
 * the `:` of `://`, before `@` and before the dot after `www` keeps them text, and shows as nothing.
 */
function escapeCell(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((part) =>
      printable(part)
        .replace(/[\\`*_[\]|~@]/g, (c) => `\\${c}`)
        .replace(/:\/\//g, '\\://')
        .replace(/(www)\./gi, '$1\\.')
        .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')),
    )
    .join('<br>');
}

/**
 * A pie label is a double-quoted string on one line. Mermaid reads `#name;` and `#35;` in it as
 * entities and passes HTML through: `#` is written as an entity first (so that a name holding `#35;`
 * shows as written), then `"`, `<` and `>`.
 */
function escapePieLabel(text: string): string {
  return printable(text.replaceAll('#', '#35;').replaceAll('"', '#quot;').replaceAll('<', '#60;').replaceAll('>', '#62;').replace(/[\r\n]+/g, ' '));
}

function tableRow(cells: (string | number)[]): string {
  return `| ${cells.map((cell) => escapeCell(String(cell))).join(' | ')} |`;
}

function table(header: string[], rows: (string | number)[][], numeric: boolean[]): string[] {
  const rule = `|${numeric.map((right) => (right ? ' ---: ' : ' --- ')).join('|')}|`;
  return [tableRow(header), rule, ...rows.map(tableRow)];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function heading(report: Report, options: FormatOptions): string {
  const { errors, warnings, inputs } = report.summary;
  const where = `in ${plural(inputs, 'input')}`;
  const over = tooManyWarnings(report, options);
  const uncovered = notCovered(report);
  // Spec section 8.5: a run that checked no record passed nothing, so it gets no pass mark.
  const none = report.summary.records === 0;
  const mark = errors > 0 || over !== undefined || uncovered?.unread === true ? '❌' : uncovered !== undefined || none ? '⚠️' : '✅';
  const problems = errors + warnings === 0 ? (none ? '' : 'no problems') : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}${over === undefined ? '' : ` (${over})`}`;
  const counts = none ? `${problems}${problems === '' ? '' : ': '}no tool results found` : problems;
  return `## ${mark} ${report.tool.name}: ${counts} ${where}${uncovered === undefined ? '' : ` (${uncovered.text})`}`;
}

function totals(report: Report): string[] {
  const s = report.summary;
  const names = ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings'] as const;
  return table([...names], [names.map((name) => s[name])], names.map(() => true));
}

/**
 * Rows a table of names from the data lists (invalid categories, tools, unknown codes), each name
 * cut to 60 characters as the other formats cut them: a corpus that invents a name a record has as
 * many as records.
 */
const maxNameRows = 100;

function shortName(name: string): string {
  return name.length > 60 ? `${cutText(name, 59)}…` : name;
}

/** At most maxNameRows of `rows`, then one that says how many more the JSON report lists. */
function capped(rows: (string | number)[][], width: number): (string | number)[][] {
  if (rows.length <= maxNameRows) return rows;
  return [...rows.slice(0, maxNameRows), [`… and ${rows.length - maxNameRows} more (the JSON report lists them all)`, ...Array<string>(width - 1).fill('')]];
}

function categories(report: Report): string[] {
  const known = Object.entries(report.summary.categories);
  const invalid = byCount(report.summary.invalidCategories);
  if (known.length + invalid.length === 0) return [];
  const rows = [...known.map(([name, n]) => [name, n]), ...capped(invalid.map(([name, n]) => [`${shortName(name)} (not a category of the schema)`, n]), 2)];
  return ['### Error categories', '', ...table(['category', 'records'], rows, [false, true])];
}

function categoryPie(report: Report): string[] {
  const seen = Object.entries(report.summary.categories).filter(([, n]) => n > 0);
  if (seen.length === 0) return [];
  return ['```mermaid', 'pie title Error categories', ...seen.map(([name, n]) => `  "${escapePieLabel(name)}" : ${n}`), '```'];
}

function tools(report: Report): string[] {
  const counts = report.summary.tools;
  if (!counts) return [];
  const entries = Object.entries(counts);
  // Past the cap, the busiest are the ones listed, not the first by name.
  if (entries.length > maxNameRows) entries.sort(([, a], [, b]) => b.records - a.records);
  const rows = entries.map(([name, t]) => [shortName(name), t.records, t.ok, t.failed, t.unknown]);
  return ['### Tools', '', ...table(['tool', 'records', 'ok', 'failed', 'unknown'], capped(rows, 5), [false, true, true, true, true])];
}

/** What the agent did after each category's failures (spec section 9), beside the tools. */
function recovery(report: Report): string[] {
  const rows = Object.entries(report.summary.recovery ?? {}).map(([category, r]) => [
    shortName(category), r.failures, r.sameCall, r.changedArguments, r.otherTool, r.end, r.cutOff,
    topNextTools(r.next).map(([tool, n]) => `${shortName(tool)} ${n}`).join(', '),
  ]);
  if (rows.length === 0) return [];
  return ['### Recovery after failures', '', ...table(['category', 'failures', 'same call', 'changed arguments', 'other tool', 'end', 'cut off', 'next tools'], capped(rows, 8), [false, true, true, true, true, true, true, false])];
}

function unknownCodes(report: Report): string[] {
  const { summary, suggestions } = report;
  const rows: (string | number)[][] = [
    ...byCount(summary.unknownCodes).map(([code, n]) => [shortName(code), 'error', n, ownEntry(suggestions.codes, code) ?? '']),
    ...byCount(summary.unknownWarningCodes).map(([code, n]) => [shortName(code), 'warning', n, ownEntry(suggestions.warningCodes, code) ?? '']),
  ];
  if (rows.length === 0) return [];
  return ['### Unknown codes', '', ...table(['code', 'kind', 'records', 'did you mean'], capped(rows, 4), [false, false, true, false])];
}

/** An unreadable input's message, whose path may run to 4 KiB, cut to 300 characters. */
function shortMessage(message: string): string {
  return message.length > 300 ? `${cutText(message, 299)}…` : message;
}

/**
 * GitHub takes a job summary of at most 1 MiB per step and refuses a larger one whole, and
 * --max-listed bounds each input, not their sum. The findings table stops where
 * the summary would pass this many bytes, and its last row says how many more there are.
 */
const summaryBytes = 1_000_000;

const leftOut = 'left out to keep this summary under the 1 MiB GitHub takes: the JSON or SARIF report lists them all';

function findings(report: Report, options: FormatOptions, budget: number): string[] {
  if (report.findings.length === 0) return [];
  // No room for the table's head and its last row: one line says what is missing.
  if (budget < 1000) return [`_${report.findings.length} findings, ${leftOut}_`];
  const lines = ['### Findings', '', ...table(['location', 'severity', 'rule', 'message'], [], [false, false, false, false])];
  // Room kept for the last row, which says how many more there are.
  let left = budget - Buffer.byteLength(lines.join('\n')) - 300;
  let unlisted = 0;
  // A row is added while it fits; from the first that does not, what is left is only counted.
  const add = (cells: () => string[], count: number) => {
    const line = unlisted > 0 ? '' : tableRow(cells());
    const bytes = Buffer.byteLength(line) + 1;
    if (unlisted > 0 || bytes > left) return void (unlisted += count);
    lines.push(line);
    left -= bytes;
  };
  for (const { source, listed, rest } of listedBySource(report.findings, options.maxListed)) {
    const messages = listedMessages(listed);
    listed.forEach((finding, i) => add(() => [printable(placeOf(finding)), finding.severity, finding.rule, messages[i]!], 1));
    if (rest > 0) add(() => [printable(source), '', '', `… and ${rest} more (--max-listed 0 lists all)`], rest);
  }
  if (unlisted > 0) lines.push(tableRow(['…', '', '', `… and ${unlisted} more, ${leftOut}`]));
  return lines;
}

// Not streamed: the findings table is bounded (--max-listed per input, summaryBytes in all).
export function* formatMarkdown(report: Report, options: FormatOptions): Generator<string> {
  const unread = report.summary.unreadable ?? [];
  const unreadable = unread.slice(0, maxNameRows).map((failure) => `> **unreadable:** ${escapeCell(printable(shortMessage(failure.message)))}`);
  if (unread.length > maxNameRows) unreadable.push(`> … and ${unread.length - maxNameRows} more inputs not read (the JSON report lists them all)`);
  const blocks = [[heading(report, options)], ...(report.summary.interrupted ? [[`> **${interruptedText}**`]] : []), ...(unreadable.length > 0 ? [unreadable] : []), totals(report), categories(report), categoryPie(report), tools(report), recovery(report), unknownCodes(report)];
  const head = blocks
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n');
  const table = findings(report, options, summaryBytes - Buffer.byteLength(head));
  yield table.length === 0 ? `${head}\n` : `${head}\n\n${table.join('\n')}\n`;
}

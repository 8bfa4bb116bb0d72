// `--format markdown`: a job summary for $GITHUB_STEP_SUMMARY (GitHub Flavored Markdown, with a
// Mermaid chart, which GitHub renders in summaries). Totals, distributions, unknown codes, then the
// first findings of each input, at most --max-listed.
// Tables: https://github.github.com/gfm/#tables-extension-
// Mermaid pie: https://mermaid.js.org/syntax/pie.html
import type { Report } from '../types.js';
import type { FormatOptions } from './options.js';
import { byCount, interruptedText, notCovered, tooManyWarnings, listedBySource, messageWithSuggestion, ownEntry, placeOf, printable, type SourceGroup } from './common.js';

/**
 * Cell text is report data, not Markdown. Backslashes and ASCII punctuation that starts inline
 * markup are backslash-escaped (GFM 2.4); `|` must be, or it ends the cell (GFM 4.10); `&`, `<`
 * and `>` become entities so that no value renders as HTML or as a character reference; a line
 * break would end the row, so it becomes <br>; other control characters are shown as escapes.
 */
function escapeCell(text: string): string {
  return text
    .split(/\r\n|\r|\n/)
    .map((part) =>
      printable(part)
        .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
        .replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')),
    )
    .join('<br>');
}

/** A pie label is a double-quoted string on one line; Mermaid reads `#quot;` as a quote. */
function escapePieLabel(text: string): string {
  return printable(text.replaceAll('"', '#quot;').replace(/[\r\n]+/g, ' '));
}

function table(header: string[], rows: (string | number)[][], numeric: boolean[]): string[] {
  const row = (cells: (string | number)[]) => `| ${cells.map((cell) => escapeCell(String(cell))).join(' | ')} |`;
  const rule = `|${numeric.map((right) => (right ? ' ---: ' : ' --- ')).join('|')}|`;
  return [row(header), rule, ...rows.map(row)];
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function heading(report: Report, options: FormatOptions): string {
  const { errors, warnings, inputs } = report.summary;
  const where = `in ${plural(inputs, 'input')}`;
  const over = tooManyWarnings(report, options);
  const uncovered = notCovered(report);
  const unread = (report.summary.unreadable?.length ?? 0) > 0;
  const mark = errors > 0 || over !== undefined || unread ? '❌' : uncovered !== undefined ? '⚠️' : '✅';
  const counts = errors + warnings === 0 ? 'no problems' : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}${over === undefined ? '' : ` (${over})`}`;
  return `## ${mark} ${report.tool.name}: ${counts} ${where}${uncovered === undefined ? '' : ` (${uncovered})`}`;
}

function totals(report: Report): string[] {
  const s = report.summary;
  const names = ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings'] as const;
  return table([...names], [names.map((name) => s[name])], names.map(() => true));
}

function categories(report: Report): string[] {
  const known = Object.entries(report.summary.categories);
  const invalid = byCount(report.summary.invalidCategories);
  if (known.length + invalid.length === 0) return [];
  const rows = [...known.map(([name, n]) => [name, n]), ...invalid.map(([name, n]) => [`${name} (not a category of the schema)`, n])];
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
  const rows = Object.entries(counts).map(([name, t]) => [name, t.ok, t.failed]);
  return ['### Tools', '', ...table(['tool', 'ok', 'failed'], rows, [false, true, true])];
}

function unknownCodes(report: Report): string[] {
  const { summary, suggestions } = report;
  const rows = [
    ...byCount(summary.unknownCodes).map(([code, n]) => [code, 'error', n, ownEntry(suggestions.codes, code) ?? '']),
    ...byCount(summary.unknownWarningCodes).map(([code, n]) => [code, 'warning', n, ownEntry(suggestions.warningCodes, code) ?? '']),
  ];
  if (rows.length === 0) return [];
  return ['### Unknown codes', '', ...table(['code', 'kind', 'records', 'did you mean'], rows, [false, false, true, false])];
}

function findingRows({ source, listed, rest }: SourceGroup): string[][] {
  const rows = listed.map((f) => [placeOf(f), f.severity, f.rule, messageWithSuggestion(f)]);
  if (rest > 0) rows.push([source, '', '', `… and ${rest} more (--max-listed 0 lists all)`]);
  return rows;
}

function findings(report: Report, options: FormatOptions): string[] {
  if (report.findings.length === 0) return [];
  const rows = Array.from(listedBySource(report.findings, options.maxListed), findingRows).flat();
  return ['### Findings', '', ...table(['location', 'severity', 'rule', 'message'], rows, [false, false, false, false])];
}

// Not streamed: a table's column widths depend on every row, and the rows are at most --max-listed per input.
export function* formatMarkdown(report: Report, options: FormatOptions): Generator<string> {
  const unreadable = (report.summary.unreadable ?? []).map((failure) => `> **unreadable:** ${escapeCell(failure.message)}`);
  const blocks = [[heading(report, options)], ...(report.summary.interrupted ? [[`> **${interruptedText}**`]] : []), ...(unreadable.length > 0 ? [unreadable] : []), totals(report), categories(report), categoryPie(report), tools(report), unknownCodes(report), findings(report, options)];
  yield `${blocks
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n')}\n`;
}

// `--format html`: one self-contained page (inline style, script and SVG; a Content-Security-Policy
// that lets nothing load) to browse a run in a CI artifact: the summary with charts, the findings as
// a table to filter and search, and each finding's record with the member it points at marked.
// Written piece by piece: the table lists the first findings only (maxRows), records only within
// the limits of findings/record-text.ts, and the counts are always the report's, complete.
import { loadCrypto } from '../../lazy.js';
import { RecordWindow, type RecordText } from '../../findings/record-text.js';
import type { Finding, Report, Summary } from '../../types.js';
import { byCount, interruptedText, messageWithSuggestion, notCovered, placeOf, printableLines, tooManyWarnings } from '../common.js';
import type { FormatOptions } from '../options.js';
import { style, script } from './assets.js';
import { barChart, type Bar } from './charts.js';
import { html, htmlShown } from './escape.js';

/** Findings the table lists, at most; the page says how many more there are. */
export const maxRows = 10_000;
/** Bars of names from the data (codes, tools, categories not in the schema) a chart shows. */
const maxBars = 12;
/** Names the other lists (unreadable inputs, recovery rows) show, at most. */
const maxNames = 100;


function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function hash(text: string): string {
  return `'sha256-${loadCrypto().createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function verdict(report: Report, options: FormatOptions): { mark: string; text: string; bad: boolean } {
  const { errors, warnings, inputs, records } = report.summary;
  const over = tooManyWarnings(report, options);
  const uncovered = notCovered(report);
  const none = records === 0;
  const bad = errors > 0 || over !== undefined || uncovered?.unread === true;
  const mark = bad ? '✖' : uncovered !== undefined || none || warnings > 0 ? '⚠' : '✔';
  const problems = errors + warnings === 0 ? (none ? 'no tool results found' : 'no problems') : `${plural(errors, 'error')}, ${plural(warnings, 'warning')}${over === undefined ? '' : ` (${over})`}${none ? ': no tool results found' : ''}`;
  return { mark, text: `${problems} in ${plural(inputs, 'input')}${uncovered === undefined ? '' : ` (${uncovered.text})`}`, bad };
}

function notices(report: Report): string[] {
  const { summary } = report;
  const out: string[] = [];
  if (summary.interrupted) out.push(`<p class="notice bad">${html(interruptedText)}</p>`);
  const unread = summary.unreadable ?? [];
  if (unread.length > 0) {
    const items = unread.slice(0, maxNames).map((failure) => `<li>${html(failure.message)}</li>`);
    if (unread.length > maxNames) items.push(`<li>… and ${unread.length - maxNames} more (the JSON report lists them all)</li>`);
    out.push(`<div class="notice bad"><strong>${html(plural(unread.length, 'input'))} not read</strong><ul>${items.join('')}</ul></div>`);
  }
  if (summary.baseline) out.push(`<p class="notice">baseline: ${summary.baseline.suppressed} known findings left out, ${summary.baseline.stale} baseline entries no longer found</p>`);
  return out;
}

const totalNames = ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings', 'protocolErrors', 'truncated'] as const;

function totals(summary: Summary): string {
  const items = totalNames.map((name) => `<div data-total="${name}"><dt>${name}</dt><dd>${summary[name]}</dd></div>`);
  return `<dl class="totals">${items.join('')}</dl>`;
}

/** The first `maxBars` of `entries` as bars, and one more that sums the rest. */
function capped(bars: Bar[], what: string): Bar[] {
  if (bars.length <= maxBars) return bars;
  const rest = bars.slice(maxBars - 1);
  return [...bars.slice(0, maxBars - 1), { label: `${rest.length} other ${what}`, value: rest.reduce((n, bar) => n + bar.value, 0), kind: 'unknown' }];
}

function outcomeChart(summary: Summary): string {
  const { ok, failed, unknown } = summary.outcomes;
  return barChart('outcomes', 'Outcomes', [
    { label: 'ok', value: ok, kind: 'ok' },
    { label: 'failed', value: failed, kind: 'failed' },
    { label: 'unknown', value: unknown, kind: 'unknown' },
  ]);
}

function categoryChart(summary: Summary): string {
  const known: Bar[] = Object.entries(summary.categories).map(([label, value]) => ({ label, value, kind: 'failed' }));
  const invalid = capped(
    byCount(summary.invalidCategories).map(([label, value]) => ({ label: `${label} (not in the schema)`, value, kind: 'warning' })),
    'categories not in the schema',
  );
  return barChart('categories', 'Failures by category', [...known, ...invalid]);
}

function codeCharts(summary: Summary): string[] {
  const chart = (key: string, title: string, counts: Record<string, number>, unknown: Record<string, number>, kind: string) =>
    barChart(
      key,
      title,
      capped(
        byCount(counts).map(([label, value]) => (Object.hasOwn(unknown, label) ? { label: `${label} (unknown)`, value, kind: 'warning' } : { label, value, kind })),
        'codes',
      ),
    );
  const charts = [chart('codes', 'Top error codes', summary.codes, summary.unknownCodes, 'failed')];
  if (Object.keys(summary.warningCodes).length > 0) charts.push(chart('warningCodes', 'Top warning codes', summary.warningCodes, summary.unknownWarningCodes, 'warning'));
  return charts;
}

function toolChart(summary: Summary): string {
  const tools = Object.entries(summary.tools ?? {})
    .filter(([, counts]) => counts.failed > 0)
    .sort(([a, x], [b, y]) => y.failed - x.failed || (a < b ? -1 : a > b ? 1 : 0));
  const bars = tools.map(([label, counts]): Bar => ({ label, value: counts.failed, kind: 'failed', note: `/ ${counts.records}` }));
  return barChart('tools', 'Failures by tool (failed / records)', capped(bars, 'tools'), summary.tools ? 'no tool failed' : 'no tool names in these records');
}

function recoveryTable(summary: Summary): string {
  // Absent from a report of an earlier release, and when no failure was counted.
  const { recovery } = summary;
  if (recovery === undefined) return '';
  const columns = ['failures', 'sameCall', 'changedArguments', 'otherTool', 'end', 'cutOff'] as const;
  const entries = Object.entries(recovery);
  const rows = entries.slice(0, maxNames).map(([category, row]) => {
    // Ties by code point, as spec section 9 orders them.
    const next = byCount(row.next ?? {})
      .slice(0, 3)
      .map(([tool, n]) => `${tool} (${n})`)
      .join(', ');
    return `<tr data-category="${html(category)}"><td>${html(category)}</td>${columns.map((column) => `<td class="n">${html(Number(row[column] ?? 0))}</td>`).join('')}<td>${html(next)}</td></tr>`;
  });
  if (entries.length > maxNames) rows.push(`<tr><td colspan="8">… and ${entries.length - maxNames} more (the JSON report lists them all)</td></tr>`);
  const head = `<tr><th>category</th>${columns.map((column) => `<th class="n">${column}</th>`).join('')}<th>top next tools</th></tr>`;
  return `<figure class="chart" data-chart="recovery"><figcaption>What the agent did after each failure</figcaption><table id="recovery"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table></figure>`;
}

function recordNote(report: Report): string {
  switch (report.recordText) {
    case 'kept':
      return 'Each finding links to its record (the first 1,000 findings, each record cut at 4 KiB).';
    case 'redacted':
      return 'Records are not shown: the run used --redact.';
    case 'merged':
      return 'Records are not shown: a merged report has none (merge reads JSON reports, which hold no record text). The checks of each shard can write their own HTML report.';
    default:
      return 'Records are not shown: the run kept no record text.';
  }
}

const filterKeys = ['severity', 'rule', 'tool', 'input'] as const;

function findingsHead(report: Report): string {
  const total = report.findings.length;
  const filters = filterKeys.map((key) => `<label>${key} <select id="filter-${key}"><option value="">all</option></select></label>`).join('');
  return (
    `<section id="findings"><h2>Findings (${total})</h2><p class="note">${html(recordNote(report))}</p>` +
    `<div class="filters">${filters}<label>search <input id="filter-search" type="search" placeholder="words in any column"></label><span id="filter-count" aria-live="polite"></span></div>` +
    `<table id="findings-table"><thead><tr><th>severity</th><th>rule</th><th>location</th><th>pointer</th><th>tool</th><th>message</th><th>record</th></tr></thead><tbody>`
  );
}

/**
 * Control and invisible characters as escapes, line feeds kept; a carriage return too, which an HTML
 * parser would turn into a line feed (a parse error's line may hold one).
 */
function printableRecord(text: string): string {
  return printableLines(text).replaceAll('\r', '\\u000d');
}

/** A record's text as shown, and the highlighted span moved to match (the escapes are longer than what they stand for). */
function shownRecord(record: RecordText): { text: string; at?: [number, number] } {
  const text = printableRecord(record.text);
  if (record.at === undefined) return { text };
  const [from, to] = record.at;
  const start = printableRecord(record.text.slice(0, from)).length;
  return { text, at: [start, start + printableRecord(record.text.slice(from, to)).length] };
}

interface Shown {
  /** The id of the record's block in the records section, shared by the findings of one record. */
  id: number;
  at?: [number, number];
}

function row(finding: Finding, shown: Shown | undefined): string {
  const { location } = finding;
  const place = placeOf(finding);
  const attributes = [
    `class="${finding.severity}"`,
    `data-severity="${finding.severity}"`,
    `data-rule="${html(finding.rule)}"`,
    `data-tool="${html(finding.tool ?? '')}"`,
    `data-input="${html(location.source)}"`,
    `data-place="${html(place)}"`,
    ...(location.pointer === undefined ? [] : [`data-pointer="${html(location.pointer)}"`]),
    ...(shown === undefined ? [] : [`data-record="${shown.id}"`, ...(shown.at ? [`data-at="${shown.at[0]},${shown.at[1]}"`] : [])]),
  ];
  const pointer = location.pointer === undefined ? '' : `<code>${location.pointer === '' ? '(root)' : html(location.pointer)}</code>`;
  const record = shown === undefined ? '' : `<a class="record" href="#rec-${shown.id}">view</a>`;
  return `<tr ${attributes.join(' ')}><td class="sev">${finding.severity}</td><td>${html(finding.rule)}</td><td class="mono">${html(place)}</td><td>${pointer}</td><td>${html(finding.tool ?? '')}</td><td>${html(messageWithSuggestion(finding))}</td><td>${record}</td></tr>\n`;
}

function recordBlock(id: number, finding: Finding, text: string, cut: boolean): string {
  return `<h3 id="rec-head-${id}" class="mono">${html(placeOf(finding))}</h3><pre class="record" id="rec-${id}" data-cut="${cut}">${htmlShown(text)}</pre>${cut ? '<p class="note">… cut at 4 KiB</p>' : ''}\n`;
}

export function* formatHtml(report: Report, options: FormatOptions): Generator<string> {
  const { summary } = report;
  const { mark, text, bad } = verdict(report, options);
  const csp = `default-src 'none'; style-src ${hash(style)}; script-src ${hash(script)}; base-uri 'none'; form-action 'none'`;
  const schema = [report.schema.version === undefined ? report.schema.source : `schema ${report.schema.version}`, `${report.tool.name} ${report.tool.version}`].join(' · ');
  yield (
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${csp}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${html(`${report.tool.name}: ${text}`)}</title><style>${style}</style></head><body>\n` +
    `<header><h1 class="${bad ? 'bad' : ''}" id="verdict">${mark} ${html(report.tool.name)}: ${html(text)}</h1><p class="meta">${html(schema)}</p></header>\n` +
    notices(report).join('\n') +
    `<section id="summary"><h2>Summary</h2>${totals(summary)}<div class="charts">${outcomeChart(summary)}${categoryChart(summary)}${recoveryTable(summary)}${codeCharts(summary).join('')}${toolChart(summary)}</div></section>\n` +
    findingsHead(report)
  );
  // Records are written after the table; their blocks wait here, within the window's bounds.
  const records: string[] = [];
  const window = new RecordWindow();
  let listed = 0;
  let last: { record: RecordText; id: number; text: string } | undefined;
  for (const finding of report.findings) {
    if (listed === maxRows) break;
    listed++;
    let shown: Shown | undefined;
    if (window.shows(finding.record)) {
      const record = finding.record!;
      // Findings of one record come together: its text is written once.
      const same = last !== undefined && last.record.text === record.text && last.record.cut === record.cut;
      const display = shownRecord(record);
      if (!same) {
        last = { record, id: records.length, text: display.text };
        records.push(recordBlock(last.id, finding, display.text, record.cut));
      }
      shown = display.at ? { id: last!.id, at: display.at } : { id: last!.id };
    }
    yield row(finding, shown);
  }
  const more = report.findings.length - listed;
  yield `</tbody></table>${more > 0 ? `<p class="more" id="more">… and ${more} more findings not listed here (this page lists the first ${maxRows.toLocaleString('en-US')}; the JSON report lists them all)</p>` : ''}</section>\n`;
  if (records.length > 0) {
    yield `<section id="records"><h2>Records</h2>\n`;
    yield* records;
    yield `</section>\n`;
  }
  yield (
    `<div id="panel" hidden><header><strong id="panel-place" class="mono"></strong><button type="button" id="panel-close">close</button></header>` +
    `<p id="panel-message"></p><pre class="record" id="panel-record"></pre><p class="note" id="panel-cut" hidden>… cut at 4 KiB</p></div>\n` +
    `<script>${script}</script>\n</body></html>\n`
  );
}

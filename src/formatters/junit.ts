// `--format junit`: JUnit XML for CI test reporters (GitLab, Jenkins, Azure DevOps, test-report
// actions). One suite per input with findings, one test case per line that has findings: it fails
// when the line has an error finding (an invalid record or an unparseable entry), and its warnings
// go to <system-out>. A last suite holds one passing case for the valid records, so that the
// totals read as "N tests, M failures". Nothing else in the report maps onto tests.
// The format as CI reporters read it: https://github.com/testmoapp/junitxml. The stricter XSD
// (https://github.com/windyroad/JUnit-Schema/blob/master/JUnit.xsd) also requires a timestamp,
// hostname, id and package on every suite and allows one <failure> or <system-out> per case, which
// no reporter needs and this output does not follow.
import type { Finding, Report } from '../types.js';
import { columnName, messageWithSuggestion, printable, printableLines, tooManyWarnings, withoutCommands } from './common.js';
import { cutText } from '../text.js';
import type { FormatOptions } from './options.js';

interface LineCase {
  line: number;
  findings: Finding[];
}

// XML 1.0 section 2.2, production [2] Char: https://www.w3.org/TR/xml/#charsets. A character
// outside it makes the whole document unreadable, even as a character reference, so it is
// dropped. In unicode mode a lone surrogate is a code point of its own and falls outside too.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

// A raw CR would be read back as LF (XML 1.0 section 2.11, end-of-line handling); raw tabs and line
// breaks in attributes are read back as spaces (section 3.3.3, normalization).
const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;', '\t': '&#9;', '\n': '&#10;' };
const entity = (c: string) => entities[c]!;
const textSpecial = /[&<>"'\r]/g;
const attributeSpecial = /[&<>"'\r\t\n]/g;
// Any UTF-16 unit that may be outside Char: a cheap test before the exact (unicode-mode) pass, which
// is needed only then (a surrogate pair is legal; a control character or a lone surrogate is not).
const maybeNotXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD]/;

/**
 * One replace for the entities, and the Char pass only for text that may need it: a third of the
 * time. Controls XML allows (ESC as &#27;, DEL, C1) and bidirectional overrides are shown as
 * escapes first, as in human output: CI pages show this text to people.
 */
function escapeWith(text: string, special: RegExp): string {
  const shown = printableLines(text);
  // printableLines made a lone surrogate an escape, as in the other formats, so that w\ud800.jsonl is not w.jsonl.
  const chars = maybeNotXmlChar.test(shown) ? shown.replace(notXmlChar, '') : shown;
  return chars.replace(special, entity);
}

function escapeText(text: string): string {
  return escapeWith(text, textSpecial);
}

function escapeAttribute(text: string): string {
  return escapeWith(text, attributeSpecial);
}

function attributes(pairs: Record<string, string | number>): string {
  return Object.entries(pairs)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
}

function findingText(finding: Finding): string {
  const text = messageWithSuggestion(finding);
  const { line, column, pointer } = finding.location;
  const place = column === undefined ? `line ${line}` : `line ${line}, column ${column}`;
  // A pointer names a property of the record, which may be of any length: it is cut, as messages are.
  // printable(): a key holding a line break would put it raw into the failure text (escapeWith keeps them).
  const at = pointer === undefined ? '' : pointer === '' ? ' at the envelope' : ` at ${printable(pointer.length > 200 ? `${cutText(pointer, 199)}…` : pointer)}`;
  return `${finding.severity} ${finding.rule} (${place}${at}): ${text}`;
}

/** Findings of one input and line are adjacent in a report: one test case each, read as they come. */
function* lineCases(findings: Iterable<Finding>): Generator<{ source: string; lineCase: LineCase }> {
  let source = '';
  let current: LineCase | undefined;
  for (const finding of findings) {
    const { source: at, line } = finding.location;
    if (current && at === source && line === current.line) {
      current.findings.push(finding);
      continue;
    }
    if (current) yield { source, lineCase: current };
    source = at;
    current = { line, findings: [finding] };
  }
  if (current) yield { source, lineCase: current };
}

interface SuiteCounts {
  tests: number;
  failures: number;
}

/** A suite's counts come first in its tag, so the findings are read twice: once to count, once to write. */
function countSuites(findings: Iterable<Finding>): Map<string, SuiteCounts> {
  const suites = new Map<string, SuiteCounts>();
  for (const { source, lineCase } of lineCases(findings)) {
    const counts = suites.get(source) ?? suites.set(source, { tests: 0, failures: 0 }).get(source)!;
    counts.tests++;
    if (isFailure(lineCase)) counts.failures++;
  }
  return suites;
}

function caseName(lineCase: LineCase): string {
  const tool = lineCase.findings.find((f) => f.tool !== undefined)?.tool;
  return tool === undefined ? `line ${lineCase.line}` : `line ${lineCase.line} (${columnName(tool)})`;
}

function isFailure(lineCase: LineCase): boolean {
  return lineCase.findings.some((f) => f.severity === 'error');
}

function testCase(lineCase: LineCase, source: string): string[] {
  const errors = lineCase.findings.filter((f) => f.severity === 'error');
  const warnings = lineCase.findings.filter((f) => f.severity === 'warning');
  const lines = [`    <testcase${attributes({ name: caseName(lineCase), classname: source, time: 0 })}>`];
  if (errors.length > 0) {
    const failure = attributes({ message: errors.map((f) => f.message).join('; '), type: errors[0]!.rule });
    lines.push(`      <failure${failure}>${escapeText(errors.map(findingText).join('\n'))}</failure>`);
  }
  if (warnings.length > 0) lines.push(`      <system-out>${escapeText(warnings.map(findingText).join('\n'))}</system-out>`);
  lines.push('    </testcase>');
  return lines;
}

function suiteStart(source: string, { tests, failures }: SuiteCounts): string {
  return `  <testsuite${attributes({ name: source, tests, failures, errors: 0, skipped: 0, time: 0 })}>`;
}

/** A failed test case of its own when the warnings fail the run, which no warning's case does. */
function warningsCase(report: Report, over: string | undefined): string[] {
  if (over === undefined) return [];
  const { warnings } = report.summary;
  const message = `${warnings} warning${warnings === 1 ? '' : 's'}, ${over}`;
  return [
    `    <testcase${attributes({ name: 'warnings', classname: report.tool.name, time: 0 })}>`,
    `      <failure${attributes({ message, type: 'max-warnings' })}>${escapeText(message)}</failure>`,
    '    </testcase>',
  ];
}

/** An input that could not be read: a test case in error, as JUnit says of a test that could not run. */
function unreadableCases(report: Report): string[] {
  return (report.summary.unreadable ?? []).flatMap((failure) => [
    `    <testcase${attributes({ name: `read ${failure.source}`, classname: report.tool.name, time: 0 })}>`,
    `      <error${attributes({ message: failure.message, type: 'unreadable' })}>${escapeText(failure.message)}</error>`,
    '    </testcase>',
  ]);
}

/** The summary suite's cases: valid records, the warnings when over the limit, each unread input. */
function summaryCounts(report: Report, over: string | undefined): { tests: number; failures: number; errors: number } {
  const failures = over === undefined ? 0 : 1;
  const errors = report.summary.unreadable?.length ?? 0;
  return { tests: 1 + failures + errors, failures, errors };
}

function validRecordsSuite(report: Report, over: string | undefined): string[] {
  const { records, valid, invalid, unparseable, skipped, errors, warnings } = report.summary;
  const properties = { records, valid, invalid, unparseable, skipped, errors, warnings, ...(report.summary.interrupted && { interrupted: 'true' }) };
  return [
    `  <testsuite${attributes({ name: 'summary', ...summaryCounts(report, over), skipped: 0, time: 0 })}>`,
    '    <properties>',
    ...Object.entries(properties).map(([name, value]) => `      <property${attributes({ name, value })}/>`),
    '    </properties>',
    `    <testcase${attributes({ name: 'valid records', classname: report.tool.name, time: 0 })}>`,
    `      <system-out>${escapeText(`${valid} of ${records} records are valid`)}</system-out>`,
    '    </testcase>',
    ...warningsCase(report, over),
    ...unreadableCases(report),
    '  </testsuite>',
  ];
}

export function* formatJunit(report: Report, options: FormatOptions): Generator<string> {
  for (const piece of junitPieces(report, options)) yield withoutCommands(piece, '&#91;', '&#58;');
}

function* junitPieces(report: Report, options: FormatOptions): Generator<string> {
  const suites = countSuites(report.findings);
  const over = tooManyWarnings(report, options);
  let { tests, failures, errors } = summaryCounts(report, over);
  for (const counts of suites.values()) (tests += counts.tests), (failures += counts.failures);
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites${attributes({ name: report.tool.name, tests, failures, errors })}>\n`;
  let open: string | undefined;
  for (const { source, lineCase } of lineCases(report.findings)) {
    if (source !== open) {
      if (open !== undefined) yield '  </testsuite>\n';
      yield `${suiteStart(source, suites.get(source)!)}\n`;
      open = source;
    }
    yield `${testCase(lineCase, source).join('\n')}\n`;
  }
  if (open !== undefined) yield '  </testsuite>\n';
  yield `${[...validRecordsSuite(report, over), '</testsuites>'].join('\n')}\n`;
}

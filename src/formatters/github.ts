// `--format github`: GitHub Actions workflow commands, which the runner turns into annotations on
// the files of a pull request. One command per finding, at most --max-listed per input.
// GitHub shows the first 10 annotations of each kind (error, warning, notice) per step and drops
// the rest from the page (they stay in the log), so what says why the run failed comes first: the
// inputs that could not be read, then the summary, then the findings.
// Limits: https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md#limitations
// Commands: https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions
// Escaping follows the toolkit's escapeData and escapeProperty:
// https://github.com/actions/toolkit/blob/main/packages/core/src/command.ts
import { zipEntrySource } from './zip-sources.js';
import type { Finding, Report } from '../types.js';
import type { FormatOptions } from './options.js';
import { relativeSourcePath } from './paths.js';
import { interruptedText, listedMessages, printableLines, tooManyWarnings } from './common.js';
import { reportFindings, type StreamWriter } from './streamed.js';

type CommandName = 'error' | 'warning' | 'notice';

/**
 * `%` first, so that the escapes added next are not escaped again. Controls and bidirectional
 * overrides from the data are shown as escapes first, as in human output: the runner prints every
 * command to the job's log, where an ESC or OSC sequence in a tool name or a file name recoloured,
 * retitled or cleared what people read.
 */
function escapeData(text: string): string {
  return printableLines(text).replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

/** Properties also end at `,` (the next property) and `:` (the `::` before the message). */
function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function command(name: CommandName, properties: Record<string, string | number>, message: string): string {
  const list = Object.entries(properties)
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${name}${list === '' ? '' : ` ${list}`}::${escapeData(message)}`;
}

function annotation(finding: Finding, message: string, cwd: string): string {
  const { source, line, column } = finding.location;
  // Standard input is no file of the repository: `file=-` would point the annotation at a file named "-".
  if (source === '-') return command(finding.severity, { title: finding.rule }, `standard input, line ${line}${column === undefined ? '' : `:${column}`}: ${message}`);
  // GitHub annotates files of the checkout: an entry of a zip is named, with its line, in the message.
  const inZip = zipEntrySource(source);
  if (inZip) return command(finding.severity, { file: relativeSourcePath(inZip.zip, cwd), title: finding.rule }, `${inZip.entry}, line ${line}${column === undefined ? '' : `:${column}`}: ${message}`);
  const properties = {
    file: relativeSourcePath(source, cwd),
    line,
    ...(column !== undefined && { col: column }),
    title: finding.rule,
  };
  return command(finding.severity, properties, message);
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function listedCommands(listed: readonly Finding[], options: FormatOptions): string[] {
  const messages = listedMessages(listed);
  return listed.map((finding, i) => annotation(finding, messages[i]!, options.cwd));
}

function notListed(source: string, rest: number, options: FormatOptions): string {
  const file = source === '-' ? 'standard input' : relativeSourcePath(source, options.cwd);
  return command('notice', {}, `${plural(rest, 'more finding')} in ${file} not annotated (--max-listed 0 lists all)`);
}

/** Annotations of one kind GitHub shows per step. */
const shownPerKind = 10;

function summaryLines(report: Report, options: FormatOptions): string[] {
  const s = report.summary;
  const over = tooManyWarnings(report, options);
  const unread = s.unreadable ?? [];
  const hidden = s.errors > shownPerKind || s.warnings > shownPerKind ? `; GitHub shows ${shownPerKind} annotations of each kind per step, the rest are in this step's log` : '';
  const text = `${plural(s.records, 'record')} in ${plural(s.inputs, 'input')}: ${s.invalid} invalid, ${s.unparseable} unparseable, ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}${over === undefined ? '' : ` (${over})`}${unread.length > 0 ? `, ${plural(unread.length, 'input')} not read` : ''}${s.interrupted ? ` (${interruptedText})` : ''}${hidden}`;
  // An error annotation when the warnings fail the run: a notice reads as a pass.
  return [...unread.map((failure) => command('error', { title: report.tool.name }, failure.message)), command(over === undefined ? 'notice' : 'error', { title: report.tool.name }, text)];
}

/**
 * The GitHub format as a stream (spec section 8.10). A report written at the end puts its summary
 * first, where GitHub's ten annotations of a kind show it; a live run's summary is known only at
 * its end, and comes there.
 */
export function githubWriter(options: FormatOptions): StreamWriter {
  return {
    maxListed: options.maxListed,
    shows: () => true,
    listed: (_source, findings) => listedCommands(findings, options).map((line) => `${line}\n`).join(''),
    inputEnd: (source, rest) => (rest > 0 ? `${notListed(source, rest, options)}\n` : ''),
    note: () => '',
    hint: (source, text) => `${command('notice', { title: 'mcec-result' }, `${source === '-' ? 'standard input' : relativeSourcePath(source, options.cwd)}: ${text}`)}\n`,
    summary: (report) => `${summaryLines(report, options).join('\n')}\n`,
  };
}

export function* formatGithub(report: Report, options: FormatOptions): Generator<string> {
  const writer = githubWriter(options);
  yield writer.summary(report);
  yield* reportFindings(writer, report.findings);
}

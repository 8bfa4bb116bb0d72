// The command line: argv -> options -> run() -> formatted reports -> stdout / files, exit status.
// Exit status (spec section 4): 0 no error finding; 1 error findings or too many warnings;
// 2 usage errors, unreadable inputs, invalid schema or codes files.
import { setImmediate as macrotask } from 'node:timers/promises';
import { existsSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { ruleIds } from '../checks/catalog.js';
import { applyConfig, dashMeansStdout, decideColor, parseFormatTarget, parseNonEmpty, parseOwnFile, parseRuleSetting, parseSchemaVersion, parseShard, refuseBaselineOnStdout, refuseSharedStream, stdoutOwnFile, type CheckFlags, type FormatTarget } from './cli-options.js';
import { byteLimitText, parseByteSize, parseCount, refuseTwoSchemas } from '../option-values.js';
import { progressLine } from './progress-line.js';
import { checkExamples } from './check-help.js';
import { configOf, refuseMissingPaths } from '../config.js';
import { UsageError, describeError } from '../errors.js';
import { printable, withoutCommands } from '../formatters/common.js';
import { WriteInterrupted, standardStream, writePieces, writeReportFile } from '../output.js';
import { loadFormatter } from '../formatters/load.js';
import { inputModes } from '../framing/index.js';
import { maxLineBytesLimit } from '../framing/ndjson.js';
import { formatNames } from '../formatters/names.js';
import { packageVersion, releaseFileUrl } from '../assets.js';
import { check, threadsFor, type CheckOptions, type OwnFile } from '../run.js';
import { raiseShapeLimit } from '../v8-tuning.js';
import { maxJobs } from '../context.js';
import { expandReportPaths, refuseArgumentMistakes, uniquePaths } from '../sources/expand.js';
import { ownFilesByKey, refuseClashes, refuseOverwrite, refuseStdinOverwrite, refuseUnwritable } from '../sources/own-files.js';
import type { Baseline } from '../baseline.js';
import type { Report } from '../types.js';
import { loadEnvelopeSchema } from '../checks/schema-load.js';
import { schemaVersionChoices } from '../checks/schema-versions.js';
import { anyLiveInput, followProblem, liveOutput, streamedTarget } from './live-output.js';
import { isTerminal, whenMade } from './stdio.js';
import { unwrapModes } from '../unwrap/index.js';

/**
 * One line on stderr, which a CI log holds as it holds the report: file names, codes and messages in
 * it are the data's, so they are printable (an ESC in a report's name reached the terminal raw) and
 * open no workflow command (withoutCommands).
 */
function say(text: string): void {
  process.stderr.write(`mcec-result: ${withoutCommands(printable(text), '\\u005b')}\n`);
}

// What only some runs need (baselines, merge, explain, each formatter) is imported when needed: in
// the CLI bundle each is a chunk of its own, so a plain `check` does not parse them (issue 5).
const loadBaselines = () => import('../baseline.js');

function collect<T>(parse: (value: string) => T) {
  return (value: string, previous: T[] = []) => [...previous, parse(value)];
}

/**
 * A repeatable option, its values collected. commander shows a default of [] as "(default: [])", in
 * --help: `shown` is what the default means (--format's is human); without it none is set, and
 * the action fills in the empty list (listsGiven).
 */
function repeatable<T>(flags: string, description: string, parse: (value: string) => T, shown?: string): Option {
  const option = new Option(flags, description).argParser(collect(parse));
  return shown === undefined ? option : option.default([], shown);
}

const count = (option: string, min = 0) => (value: string) => parseCount(option, value, { min });

/**
 * The report options `check` and `merge` share, declared once, as fresh options for each command:
 * each adds them where its --help lists them.
 */
function reportOptions() {
  return {
    format: repeatable('-f, --format <name[=file]>', `report format: ${formatNames.join(', ')}; repeatable, =file writes that report to a file (=- to stdout)`, parseFormatTarget, '"human"'),
    output: new Option('-o, --output <file>', 'write the report to a file instead of stdout (- is stdout)').argParser(parseNonEmpty('--output')),
    maxListed: new Option('--max-listed <n>', 'findings listed per input in human, GitHub and Markdown output; 0 lists all').default(100).argParser(count('--max-listed')),
    maxWarnings: new Option('--max-warnings <n>', 'exit 1 when warnings exceed n').argParser(count('--max-warnings')),
    quiet: new Option('-q, --quiet', 'human output: errors and the summary only'),
    color: new Option('--color', 'force colour (FORCE_COLOR is honoured too)'),
    noColor: new Option('--no-color', 'no colour (NO_COLOR is honoured too)'),
  };
}

/** The flags as commander hands them over: a repeatable option not given is undefined. */
type GivenFlags = Omit<CheckFlags, 'codes' | 'rule'> & Partial<Pick<CheckFlags, 'codes' | 'rule'>>;

const listsGiven = (flags: GivenFlags): CheckFlags => ({ ...flags, codes: flags.codes ?? [], rule: flags.rule ?? [] });

function exitStatus(report: Report, flags: CheckFlags): number {
  if (report.interrupted) return 130;
  if (report.inputFailures.length > 0) return 2;
  // Recording a baseline accepts today's findings, so the run that records it passes.
  if (flags.exitZero || flags.writeBaseline !== undefined) return 0;
  if (report.summary.errors > 0) return 1;
  if (flags.maxWarnings !== undefined && report.summary.warnings > flags.maxWarnings) {
    // A JSON or SARIF report holds no verdict: exit 1 over warnings alone needs its reason said.
    const { warnings } = report.summary;
    say(`${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${flags.maxWarnings}: exit 1`);
    return 1;
  }
  return 0;
}

/**
 * Whether a report has begun to go to standard output, which a signal then leaves cut short (a
 * report file is replaced only once whole): SIGTERM then says the report is cut short, not absent.
 */
let toStdoutBegun = false;

/** Ends the reading of a followed file while one is read: SIGTERM's way to end it normally. */
let endFollow: (() => void) | undefined;

/** The options every format is written with, and whether a report to `file` (stdout: undefined) is coloured. */
function formatOptions(flags: CheckFlags) {
  // Colour asked for (--color, the config's "color", FORCE_COLOR) colours a report file too, as
  // `grep --color=always > file` does; only the automatic choice is the terminal's, for a report
  // to stdout or stderr however named (`-f human=-` and `-o /dev/stdout` on a terminal are coloured too).
  const colorFor = (file: string | undefined): boolean => {
    const stream = file === undefined ? 1 : standardStream(file);
    return decideColor(flags.color, stream === 1 || stream === 2 ? isTerminal(stream) : false, process.env);
  };
  // The warnings fail the run only where exitStatus holds them to the limit.
  const maxWarnings = flags.exitZero || flags.writeBaseline !== undefined ? undefined : flags.maxWarnings;
  const options = { maxListed: flags.maxListed, quiet: flags.quiet ?? false, cwd: process.cwd(), ...(maxWarnings !== undefined && { maxWarnings }) };
  return { options, colorFor };
}

/** The reports a run writes: `--format`'s, or the human one. */
const targetsOf = (flags: Pick<CheckFlags, 'format'>): FormatTarget[] => (flags.format.length > 0 ? flags.format : [{ format: 'human' as const }]);

/**
 * `live`: the report to standard output was written while the run went on (spec section 8.10); its
 * end (the summary) is what is left to write, in its place.
 */
async function writeReports(report: Report, flags: CheckFlags, signal?: AbortSignal, live?: { target: FormatTarget; end: (report: Report) => string }): Promise<void> {
  const targets = live ? targetsOf(flags).map((target) => (target.format === live.target.format && target.file === live.target.file ? live.target : target)) : targetsOf(flags);
  const { options, colorFor } = formatOptions(flags);
  // Reports to files first, then those to stdout (or -o) in the order given, each written as it is formatted.
  const main: Iterable<string>[] = [];
  // Said once the SARIF log is written, so that Ctrl-C while it is written leaves no warning about a log that is not there.
  let mainWarning: string | undefined;
  const warn = (warning: string | undefined) => warning !== undefined && say(warning);
  for (const target of targets) {
    const file = target.file ?? flags.output;
    if (target === live?.target) {
      if (target.file === undefined) main.push([live.end(report)]);
      else await writeReportFile(target.file, [[live.end(report)]], signal);
      continue;
    }
    const format = await loadFormatter(target.format);
    const pieces = format(report, { ...options, color: colorFor(file) });
    const warning = target.format === 'sarif' ? (await import('../formatters/sarif.js')).sarifWarning(report) : undefined;
    if (target.file === undefined) {
      main.push(pieces);
      mainWarning ??= warning;
      continue;
    }
    await writeReportFile(target.file, [pieces], signal);
    warn(warning);
  }
  if (flags.output !== undefined) {
    if (main.length > 0) await writeReportFile(flags.output, main, signal);
  } else {
    toStdoutBegun = true;
    await writePieces(1, main, signal);
  }
  warn(mainWarning);
}

/** Baselines merge into a baseline, which has one shape: the options that shape a report do not apply. */
async function writeMergedBaseline(baselines: readonly { baseline: Baseline; folder: string }[], flags: CheckFlags, signal: AbortSignal): Promise<void> {
  const reportOnly = [['--format', flags.format.length > 0], ['--quiet', flags.quiet === true], ['--max-warnings', flags.maxWarnings !== undefined]] as const;
  const given = reportOnly.find(([, set]) => set);
  if (given) throw new UsageError(`merge: ${given[0]} shapes a report, and baselines merge into a baseline: write it with -o FILE (or to stdout)`);
  const { baselinePieces, mergeBaselines, writtenFolder } = await loadBaselines();
  await writeReportFile(flags.output ?? '-', [baselinePieces(mergeBaselines(baselines, writtenFolder(flags.output)))], signal);
}

interface ExplainFlags {
  codes?: string[];
  schema?: string;
  schemaVersion?: string;
  /** A path, or false for --no-config. */
  config?: string | false;
}

/**
 * The codes files of `--codes`, else of the config file (its `keys` held to exist, as check holds
 * them): explain and merge know a team's codes when check does.
 */
function configuredCodes(given: ExplainFlags, command: Command, keys: readonly ('schema' | 'codes')[]) {
  const config = configOf(given.config);
  const fromCommandLine = (key: string) => command.getOptionValueSource(key) === 'cli';
  if (config) refuseMissingPaths(config, keys, fromCommandLine);
  const settings = config?.settings;
  const codes = fromCommandLine('codes') ? (given.codes ?? []) : [settings?.codes ?? []].flat();
  return { codes, settings };
}

function withConfig(flags: CheckFlags, command: Command): { flags: CheckFlags; configPath?: string } {
  const config = configOf(flags.config);
  if (!config) return { flags };
  return { flags: applyConfig(flags, config, (key) => command.getOptionValueSource(key) === 'cli'), configPath: config.path };
}

const ownFile = (path: string | undefined, role: string, written: boolean): OwnFile[] => (path === undefined ? [] : [{ path, role, written }]);

/** The reports a run writes to files (check and merge). */
function writtenReports(flags: Pick<CheckFlags, 'output' | 'format'>): OwnFile[] {
  // `=-` is standard output, no file.
  const file = (target: FormatTarget) => (target.file === '-' ? undefined : target.file);
  return [...ownFile(flags.output, 'the report', true), ...flags.format.flatMap((target) => ownFile(file(target), `the ${target.format} report`, true))];
}

/** The files a check run reads as settings or writes: a folder or glob that finds one leaves it out. */
function ownFiles(flags: CheckFlags, configPath: string | undefined): OwnFile[] {
  return [
    ...ownFile(configPath, 'the config file', false),
    ...ownFile(flags.schema, 'the schema', false),
    ...flags.codes.flatMap((path) => ownFile(path, 'the codes file', false)),
    ...ownFile(flags.baseline, 'the baseline', false),
    ...ownFile(flags.writeBaseline, 'the baseline', true),
    ...writtenReports(flags),
  ];
}

/** What check() is given, from the merged flags (its `ownFiles`: the files the run must not read as inputs). */
function checkOptionsOf(flags: CheckFlags, ownFiles: readonly OwnFile[]): CheckOptions {
  return {
    ...(flags.schema !== undefined && { schema: flags.schema }),
    ...(flags.schemaVersion !== undefined && { schemaVersion: flags.schemaVersion }),
    codes: flags.codes,
    strictCodes: flags.strictCodes ?? false,
    rules: Object.fromEntries(flags.rule),
    input: flags.input,
    unwrap: flags.unwrap,
    ...(flags.stdinFilename !== undefined && { stdinFilename: flags.stdinFilename }),
    ...(flags.maxLineBytes !== undefined && { maxLineBytes: flags.maxLineBytes }),
    ...(flags.maxZipEntryBytes !== undefined && { maxZipEntryBytes: flags.maxZipEntryBytes }),
    extract: flags.extract ?? false,
    redact: flags.redact ?? false,
    fingerprints: flags.baseline !== undefined || flags.writeBaseline !== undefined,
    // The HTML report shows records: kept only when one is written (never with --redact).
    ...(targetsOf(flags).some((target) => target.format === 'html') && { recordText: true }),
    ...(flags.shard !== undefined && { shard: flags.shard }),
    ...(flags.jobs !== undefined && { jobs: flags.jobs }),
    ...(flags.findingsInMemory !== undefined && { findingsInMemory: flags.findingsInMemory }),
    ownFiles,
  };
}

async function runCheck(inputs: string[], given: CheckFlags, command: Command): Promise<number> {
  refuseTwoSchemas(given);
  const { flags: merged, configPath } = withConfig(given, command);
  const flags = dashMeansStdout(merged);
  if (flags.printConfig === true) {
    // The settings only: no input is looked at, so none is needed.
    const { printedConfig } = await import('./print-config.js');
    await writePieces(1, [[printedConfig(configPath, checkOptionsOf(flags, []), flags, targetsOf(flags))]]);
    return 0;
  }
  if (inputs.length === 0) {
    if (process.stdin.isTTY) {
      // Spec section 4: nothing named and nothing piped in prints usage and exits 2.
      process.stderr.write('mcec-result: no inputs: name files, folders or globs, or pipe records in\n\n');
      command.help({ error: true });
    }
    inputs = ['-'];
  }
  refuseArgumentMistakes(inputs);
  const followRefused = followProblem(inputs, flags);
  if (followRefused !== undefined) throw new UsageError(followRefused);
  const follow = flags.follow === true;
  // From the command line, a name for nothing read is refused rather than passed over; a config's applies to runs that read stdin.
  if (command.getOptionValueSource('stdinFilename') === 'cli' && !inputs.includes('-')) {
    throw new UsageError(`--stdin-filename ${flags.stdinFilename}: names standard input, which this run does not read: add - to the inputs, or drop the option`);
  }
  const own = ownFiles(flags, configPath);
  refuseClashes(own);
  refuseSharedStream(flags);
  refuseBaselineOnStdout(flags);
  refuseUnwritable(own);
  if (inputs.includes('-')) refuseStdinOverwrite(own);
  const options = checkOptionsOf(flags, [...own, ...stdoutOwnFile(flags)]);
  // Spec section 8.10: with a live input and one streamable report to stdout, findings are written as they come.
  const liveTarget = streamedTarget(targetsOf(flags), flags.output);
  const streaming = liveTarget !== undefined && anyLiveInput(inputs, follow);
  // A live report is its own progress; a progress line would be drawn over it.
  // Asked of the descriptor first: a progress line is drawn only on a terminal, and stderr's stream is made only for one.
  const progress = streaming || !isTerminal(2) ? undefined : progressLine(process.stderr, process.env, flags.progress !== false);
  if (progress) options.onProgress = (p) => progress.update(p);
  // Read before the run, so that a broken baseline fails at once.
  const baseline = flags.baseline === undefined ? undefined : (await loadBaselines()).readBaseline(flags.baseline);
  // Ctrl-C stops reading; the report of what was read is still printed, then exit 130 (a followed
  // file's run ends so normally, and SIGTERM ends it too).
  const interrupt = new AbortController();
  const onSigint = () => interrupt.abort();
  process.once('SIGINT', onSigint);
  if (follow) endFollow = () => interrupt.abort();
  // A reader of the live report gone (`| head`): the run stops, as it would writing the report at the end.
  let liveWriteFailed: unknown;
  const formatting = formatOptions(flags);
  const live =
    streaming &&
    (await liveOutput(
      liveTarget,
      { ...formatting.options, color: formatting.colorFor(liveTarget.file === '-' ? undefined : liveTarget.file) },
      follow,
      (text) => {
        if (text === '' || liveWriteFailed !== undefined) return;
        toStdoutBegun = true;
        writePieces(1, [[text]]).catch((error: unknown) => {
          liveWriteFailed ??= error;
          interrupt.abort();
        });
      },
      say,
      baseline && (await loadBaselines()).matcher(baseline, (await loadBaselines()).baselineFolder(flags.baseline))(),
    ));
  // Not before worker threads start: see src/v8-tuning.ts.
  raiseShapeLimit(threadsFor(options));
  let report = await check(inputs, { ...options, signal: interrupt.signal }, undefined, live ? { observer: live.observer, ...(follow && { follow: { fromStart: flags.fromStart === true } }) } : undefined).finally(async () => {
    // A signal that came during synchronous work (one JSON.parse of a large document) is delivered
    // on the next macrotask turn: the listener stays for it, so that such a Ctrl-C is not lost.
    await macrotask();
    process.off('SIGINT', onSigint);
    endFollow = undefined;
    progress?.clear();
  });
  if (liveWriteFailed !== undefined) {
    // `| head` closed the pipe: the reader has what it wanted, and the run's stop was ours, not Ctrl-C's.
    if ((liveWriteFailed as NodeJS.ErrnoException).code === 'EPIPE') return exitStatus({ ...report, interrupted: false }, flags);
    throw liveWriteFailed;
  }
  // Ctrl-C heard only once the run has ended (its signal waits out synchronous work). A pipe's end may
  // be its doing: in a terminal it ends every process of the pipeline, and the writer's end comes
  // here as the input's, so a piped run's report is not called whole (robustness.test.ts, 'Ctrl-C and the end of a pipe').
  if (interrupt.signal.aborted && !report.interrupted && report.piped) report = { ...report, interrupted: true, summary: { ...report.summary, interrupted: true } };
  // Ctrl-C came as the last input was checked: the report is whole, and says so; the exit is 130 still.
  // (Ctrl-C is how a followed file's run ends: no late one.)
  const lateCtrlC = interrupt.signal.aborted && !report.interrupted && !follow;
  // A baseline of part of the corpus would make the rest "new" on the next run: none is written then.
  const partial = report.interrupted ? 'the run was interrupted' : report.inputFailures.length > 0 ? 'an input could not be read' : undefined;
  const stopped = await stoppableWrite(async (signal) => {
    if (flags.writeBaseline !== undefined && partial === undefined) await (await loadBaselines()).writeBaseline(flags.writeBaseline, report.findings, signal, report.schema.version);
    if (baseline) {
      const { applyBaseline, baselineFolder, schemaVersionNote } = await loadBaselines();
      const note = schemaVersionNote(baseline, flags.baseline!, report.schema.version);
      if (note !== undefined) say(note);
      report = applyBaseline(report, baseline, baselineFolder(flags.baseline));
    }
    await writeReports(report, flags, signal, live ? { target: liveTarget!, end: live.end } : undefined);
  });
  if (stopped !== undefined) return stopped;
  // File names come from the folders searched: shown with escapes, as the human report shows them.
  for (const note of report.notes ?? []) say(note);
  for (const failure of report.inputFailures) say(failure.message);
  // A report may be read later, from a file or a CI log: say that it stops early, and where.
  if (report.interrupted) say(`interrupted: the report covers only what was read before Ctrl-C (${report.summary.records} records)`);
  if (lateCtrlC) say(`Ctrl-C came as the last input was checked: the report is whole (${report.summary.records} records)`);
  if (flags.writeBaseline !== undefined && partial !== undefined) say(`baseline ${flags.writeBaseline} not written: ${partial}, so it would hold only part of the findings`);
  return lateCtrlC ? 130 : exitStatus(report, flags);
}

/**
 * Runs `write` with Ctrl-C stopping it; returns 130 when it did. Once reading is over, SIGINT had its
 * default action, which kills the process without its exit handlers: a long report (a 600k-result
 * SARIF takes ~20 s) left its spooled findings in TMPDIR and a partial temporary report beside the
 * target. Stopped here, a report file keeps its last contents and the temporary files go at exit.
 */
async function stoppableWrite(write: (signal: AbortSignal) => Promise<void>): Promise<number | undefined> {
  const stop = new AbortController();
  const onSigint = () => stop.abort();
  process.once('SIGINT', onSigint);
  try {
    await write(stop.signal);
    return undefined;
  } catch (error) {
    // `| head` closed the pipe: the reader has what it wanted; the verdict and stderr's lines stand,
    // however much of the report the pipe took.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return undefined;
    if (!(error instanceof WriteInterrupted)) throw error;
    say(`interrupted by Ctrl-C while the report was written: ${error.detail}`);
    return 130;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** `check -run.jsonl` is an unknown option to commander; when such a file exists, say how to name it. */
function dashFileHint(text: string): string {
  const option = /^unknown option '(-.+)'\n$/.exec(text)?.[1];
  if (option === undefined || !existsSync(option)) return text;
  return `${text.trimEnd()}: ${option} is a file? Name it after --, or as ./${option}\n`;
}

/** The last line of `--help`: a function, so that only a help text reads package.json's homepage. */
const docsLine = (): string => `\nDocs: ${releaseFileUrl('docs/cli.md')}`;

function program(setStatus: (status: number) => void): Command {
  const root = new Command('mcec-result')
    .description('Conformance checker for MCEC 3.0 agent tool result envelopes.')
    .version(packageVersion())
    .exitOverride()
    // commander's own usage errors start like every other message of the tool, not with "error:".
    .configureOutput({ outputError: (text, write) => write(`mcec-result: ${dashFileHint(text.replace(/^error: /, ''))}`) })
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', docsLine);
  const checkReport = reportOptions();
  root
    .command('check')
    .description('check result envelopes in files, folders, globs or standard input (-)')
    .argument('[inputs...]', 'files, folders (searched for .json/.jsonl/.ndjson/.log and .gz), globs, - for stdin')
    .addOption(checkReport.format)
    .addOption(checkReport.output)
    .option('--schema <file>', 'another envelope schema (default: the bundled MCEC schema)', parseOwnFile('--schema', 'input'))
    .option('--schema-version <name>', `the bundled envelope schema to check against: ${schemaVersionChoices.join(', ')} (default latest, the newest)`, parseSchemaVersion)
    .addOption(repeatable('--codes <file>', 'extra known codes, merged onto the bundled registry; repeatable', parseOwnFile('--codes', 'input')))
    .option('--strict-codes', 'unknown error and warning codes are errors, not warnings')
    .option('--no-strict-codes', 'unknown codes are warnings, whatever the config file says')
    .addOption(repeatable('--rule <id=setting>', `set a rule to off, warning or error; repeatable (rules: ${ruleIds.join(', ')})`, parseRuleSetting))
    .addOption(new Option('--input <framing>', 'force the framing').choices(inputModes).default('auto'))
    .addOption(new Option('--unwrap <mode>', 'none checks every value as a bare envelope').choices(unwrapModes).default('auto'))
    .option('--extract', 'find the JSON object inside prefixed log lines; lines without one are skipped')
    .option('--no-extract', 'no --extract, whatever the config file says')
    .option('--stdin-filename <name>', 'the name standard input gets in reports', parseNonEmpty('--stdin-filename', 'name'))
    .option('--max-zip-entry-bytes <n>', 'a zip entry that inflates to more is refused as a zip bomb (default 1G; K, M and G are binary)', (value: string) => parseByteSize('--max-zip-entry-bytes', value, Number.MAX_SAFE_INTEGER))
    .option('--max-line-bytes <n>', `longer lines are parse errors, never held whole (default 64M; K and M are binary; at most ${byteLimitText(maxLineBytesLimit)})`, (value: string) => parseByteSize('--max-line-bytes', value, maxLineBytesLimit))
    .addOption(checkReport.maxListed)
    .addOption(checkReport.maxWarnings)
    .addOption(checkReport.quiet)
    .option('--no-quiet', 'no --quiet, whatever the config file says')
    .option('--jobs <n>', `worker threads, 1 to ${maxJobs} (default: the cores available, from 128 MiB of input divided by them); the report is the same for any n`, (value: string) => parseCount('--jobs', value, { min: 1, max: maxJobs }))
    .option('--findings-in-memory <n>', 'findings held in memory per thread before they wait in a temporary file (default 100000)', count('--findings-in-memory', 1))
    .option('--no-progress', 'no progress line on stderr (it shows only on a terminal, for large inputs)')
    .option('--shard <i/n>', 'check the i-th of n parts of the input files (sorted by path), for CI matrices; merge the JSON reports with `merge`', parseShard)
    .option('--redact', 'keep envelope values (detail, result, observations) out of every report')
    .option('--no-redact', 'no --redact, whatever the config file says')
    .option('--baseline <file>', 'report (and fail on) only findings that are not in this baseline', parseOwnFile('--baseline', 'input'))
    .option('--write-baseline <file>', "record today's findings as a baseline, and exit 0", parseOwnFile('--write-baseline', 'output'))
    .option('--config <file>', 'a config file (default: mcec-result.config.json or package.json "mcec-result", searched upward)', parseOwnFile('--config', 'input'))
    .option('--no-config', 'use no config file')
    .option('--exit-zero', 'exit 0 even when findings are errors (usage and input failures still exit 2)')
    .option('--no-exit-zero', 'no --exit-zero, whatever the config file says')
    .option('--follow', 'read one growing log file as it is written, like tail -F (rotation and truncation too), until Ctrl-C or SIGTERM')
    .option('--from-start', 'with --follow: read the file from its beginning, not from its current end')
    .option('--print-config', 'print the settings this run would use (config file and options merged) as JSON, and exit 0 without reading inputs')
    .addOption(checkReport.color)
    .addOption(checkReport.noColor)
    .addHelpText('after', checkExamples)
    .addHelpText('after', docsLine)
    .action(async (inputs: string[], flags: GivenFlags, command: Command) => setStatus(await runCheck(inputs, listsGiven(flags), command)));
  const mergeReport = reportOptions();
  root
    .command('merge')
    .description('combine JSON reports (of --shard runs) into one report, in any format, or baselines into one baseline')
    .argument('<reports...>', 'reports written by check --format json, or baselines by check --write-baseline: files, globs, - for stdin')
    .addOption(mergeReport.format)
    .addOption(mergeReport.output)
    .addOption(mergeReport.maxListed)
    .addOption(mergeReport.maxWarnings)
    .addOption(mergeReport.quiet)
    .addOption(mergeReport.color)
    .addOption(mergeReport.noColor)
    .addOption(repeatable('--codes <file>', "extra known codes, as check read them: the unknown codes' suggestions; repeatable", parseOwnFile('--codes', 'input')))
    .option('--config <file>', 'the config file whose codes to read (default: searched upward, as check does)', parseOwnFile('--config', 'input'))
    .option('--no-config', 'use no config file')
    .action(async (paths: string[], given: GivenFlags, command: Command) => {
      // The reports hold their codes' counts, not the registry check suggested from: a team's codes
      // are read again, or a merged report said no "did you mean" that its shards' had said.
      const { codes, settings } = configuredCodes(given, command, ['codes']);
      const flags = dashMeansStdout(listsGiven(given));
      const written = writtenReports(flags);
      refuseClashes(written);
      refuseSharedStream(flags);
      refuseUnwritable(written);
      const owned = ownFilesByKey(written);
      // A report named twice (`merge reports/*.json reports/part-1.json`) would count its records twice.
      const reports = uniquePaths(await expandReportPaths(paths));
      for (const path of reports) if (path !== '-') refuseOverwrite(path, path, owned);
      const [{ mergeReports, readMergeInputs, sharedInputsWarning }, { loadRegistry }] = await Promise.all([import('../merge.js'), import('../registry/load.js')]);
      // Ctrl-C while the reports are read: no report, and the spool folder removed (exit handlers run),
      // where the signal's default action left it behind (merge had no handler until writing).
      const onSigint = () => {
        say('stopped by Ctrl-C while the reports were read: no report written');
        process.exit(130);
      };
      process.once('SIGINT', onSigint);
      const inputs = await readMergeInputs(reports);
      // A Ctrl-C that came during the last report's read is delivered on the next macrotask turn,
      // to this listener (removed at once, it would go to the writer's, after the report is written).
      await macrotask();
      if (inputs.kind === 'baselines') {
        process.off('SIGINT', onSigint);
        setStatus((await stoppableWrite((signal) => writeMergedBaseline(inputs.baselines, flags, signal))) ?? 0);
        return;
      }
      const report = mergeReports(inputs.reports, inputs.findings, loadRegistry(codes));
      // The verdict a single run would give, which holds the config's maxWarnings, as check does.
      // Not for baselines, which no verdict is given on.
      const configured = settings?.maxWarnings;
      if (configured !== undefined && command.getOptionValueSource('maxWarnings') !== 'cli') flags.maxWarnings = configured;
      await macrotask();
      process.off('SIGINT', onSigint);
      const shared = sharedInputsWarning(inputs.reports);
      if (shared !== undefined) say(shared);
      const stopped = await stoppableWrite((signal) => writeReports(report, flags, signal));
      for (const failure of report.inputFailures) say(failure.message);
      if (report.interrupted) say('interrupted: a merged report covers only what its run read before Ctrl-C');
      setStatus(stopped ?? exitStatus(report, flags));
    });
  root
    .command('explain')
    .description('what a category, an error or warning code, or a rule means, and how an agent recovers; with no name, every one')
    .argument('[name]', 'a category (no-target), an error or warning code (window-not-found), a rule id (missing-result) or schema-versions; none lists them all')
    .addOption(repeatable('--codes <file>', 'extra known codes, as check reads them; repeatable', parseOwnFile('--codes', 'input')))
    .option('--schema <file>', 'the envelope schema whose categories to know (and the codes files list codes under)', parseOwnFile('--schema', 'input'))
    .option('--schema-version <name>', `the bundled envelope schema whose categories to know: ${schemaVersionChoices.join(', ')} (default latest)`, parseSchemaVersion)
    .option('--config <file>', 'the config file whose codes and schema to read (default: searched upward, as check does)', parseOwnFile('--config', 'input'))
    .option('--no-config', 'use no config file')
    .action(async (name: string | undefined, given: ExplainFlags, command: Command) => {
      // A team's own codes live in its config or --codes: explain knows them when check does. A name
      // may be a rule and a team's code at once, so even a rule's explanation reads them; a config
      // check would refuse is refused here in check's words, the file and key named.
      const { codes, settings } = configuredCodes(given, command, ['codes', 'schema']);
      const [{ explain }, { loadRegistry }] = await Promise.all([import('../explain/explain.js'), import('../registry/load.js')]);
      // Its categories: those a codes file may list codes under, and those explain can name.
      refuseTwoSchemas(given);
      // One setting, as for check: either typed replaces both of the config's.
      const typed = given.schema !== undefined || given.schemaVersion !== undefined;
      const schema = loadEnvelopeSchema(typed ? given.schema : settings?.schema, typed ? given.schemaVersion : settings?.schemaVersion);
      process.stdout.write(explain(name, loadRegistry(codes, schema?.categories ?? []), schema));
      setStatus(0);
    });
  return root;
}

/**
 * `timeout`, `docker stop` and a closed terminal end a run with SIGTERM or SIGHUP, whose default
 * action skips the exit handlers, which remove a spooled run's temporary findings (a folder per
 * run, as large as its findings). Exiting runs them. Ctrl-C (SIGINT) is the run's own: it
 * stops reading and still reports.
 */
function exitOnTermination(): void {
  // SIGQUIT (Ctrl-\\) too: its default action left the spool folder behind as well.
  for (const [signal, number] of [['SIGTERM', 15], ['SIGHUP', 1], ['SIGQUIT', 3]] as const) {
    process.once(signal, function onTermination() {
      // SIGTERM ends a followed file's run as Ctrl-C does, with its report (spec section 8.10); another ends the process.
      if (signal === 'SIGTERM' && endFollow) {
        endFollow();
        endFollow = undefined;
        process.once(signal, onTermination);
        return;
      }
      try {
        say(`stopped by ${signal}: ${toStdoutBegun ? 'the report on standard output is cut short' : 'no report written'}`);
      } finally {
        process.exit(128 + number);
      }
    });
  }
}

/** Runs the CLI and returns the exit status; never throws. */
export async function main(argv: readonly string[]): Promise<number> {
  let status = 0;
  exitOnTermination();
  whenMade('stdout', (stdout) =>
    stdout.on('error', (error: NodeJS.ErrnoException) => {
      // `| head` closed the pipe: stop quietly, as Unix tools do.
      if (error.code === 'EPIPE') process.exit(status);
      throw error;
    }),
  );
  // `2>&1 | true`, or a CI log collector gone: messages are lost, the reports and the exit status are
  // not (an unhandled EPIPE here killed the run mid-write, leaving its temporary report behind).
  whenMade('stderr', (stderr) =>
    stderr.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    }),
  );
  try {
    await program((s) => (status = s)).parseAsync(argv);
    return status;
  } catch (error) {
    // The report went to stdout with writeSync: `| head` closing the pipe surfaces here.
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') return status;
    if (error instanceof CommanderError) {
      // --help and --version end with exitCode 0; everything else commander rejects is a usage error.
      return error.exitCode === 0 ? 0 : 2;
    }
    const text = error instanceof UsageError ? error.message : `unexpected failure: ${describeError(error)}`;
    say(text);
    return 2;
  }
}

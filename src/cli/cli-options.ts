// Parsing of option values that commander leaves as strings. Each failure is a UsageError naming the
// option and listing what is valid, so `--help` is rarely needed to fix it.
import { isRuleId, unknownRule } from '../checks/catalog.js';
import { resolveSchemaVersion } from '../checks/schema-versions.js';
import { ruleSettings } from '../checks/severity.js';
import { existsSync, fstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import type { ConfigSettings, LoadedConfig, PlainSettings } from './config.js';
import type { OwnFile } from '../context.js';
import { UsageError } from '../errors.js';
import { formatNames, isFormatName, type FormatName } from '../formatters/names.js';
import { standardStream } from '../output.js';
import type { RuleId, RuleSetting } from '../types.js';

export interface FormatTarget {
  format: FormatName;
  /** Where this report goes; undefined for stdout (or --output). */
  file?: string;
}

export function parseFormatTarget(value: string): FormatTarget {
  const equals = value.indexOf('=');
  const name = equals === -1 ? value : value.slice(0, equals);
  const file = equals === -1 ? undefined : value.slice(equals + 1);
  if (!isFormatName(name)) throw new UsageError(`--format: unknown format "${name}" (choose from ${formatNames.join(', ')})`);
  if (file === '') throw new UsageError(`--format ${name}=: the file name is missing`);
  return file === undefined ? { format: name } : { format: name, file };
}

/**
 * `-` is standard output, as it is standard input among the inputs: `-o -` and `-f json=-` wrote a
 * file named "-". `-o -` is no --output at all; a format's `=-` is written to stdout as it is.
 */
export function dashMeansStdout<T extends Pick<CheckFlags, 'output'>>(flags: T): T {
  return flags.output === '-' ? { ...flags, output: undefined } : flags;
}

/** Formats a program reads as one document (or one record a line): nothing else may share their stream. */
const documentFormats: readonly FormatName[] = ['json', 'ndjson', 'sarif', 'junit', 'html'];
const extensions: Record<FormatName, string> = { human: 'txt', json: 'json', ndjson: 'ndjson', sarif: 'sarif', junit: 'xml', github: 'txt', markdown: 'md', html: 'html' };

/** This process's standard output as a file, when it has one that can be told apart (Windows gives no inode). */
function stdoutFile(): Stats | undefined {
  try {
    const out = fstatSync(1);
    return out.ino === 0 ? undefined : out;
  } catch {
    return undefined;
  }
}

/**
 * Standard output under a name of its own: `> r.json` and `-f json=r.json`, or the terminal's
 * /dev/pts/N. Matched by device and inode, not by spelling, as a shell's redirection has no name
 * here. /dev/null is no stream: whatever goes to it is gone, so no two reports mix there.
 */
function stdoutByFile(path: string): Stats | undefined {
  const out = stdoutFile();
  if (!out) return undefined;
  try {
    const target = statSync(path, { throwIfNoEntry: false });
    if (!target || target.dev !== out.dev || target.ino !== out.ino) return undefined;
    if (target.isCharacterDevice() && target.rdev === statSync('/dev/null', { throwIfNoEntry: false })?.rdev) return undefined;
    return target;
  } catch {
    // A path that cannot be looked at is said when it is written.
    return undefined;
  }
}

/**
 * Standard output as one of the run's own files, when it is a regular file a report goes to
 * (`check -f json logs/ > logs/report.json`): a walk of the folder found it, emptied by the shell,
 * and checked it as an input, with an empty-input warning every run (a --max-warnings 0 failure).
 * Named by Linux's /proc/self/fd/1; elsewhere a redirection has no name to be found by.
 */
export function stdoutOwnFile(flags: Pick<CheckFlags, 'output' | 'format'>): OwnFile[] {
  const toStdout = flags.output === undefined && (flags.format.length === 0 || flags.format.some((target) => target.file === undefined || target.file === '-'));
  const out = toStdout && process.platform === 'linux' ? stdoutFile() : undefined;
  if (!out?.isFile()) return [];
  try {
    const path = realpathSync('/proc/self/fd/1');
    const named = statSync(path);
    return named.dev === out.dev && named.ino === out.ino ? [{ path, role: 'the report on standard output', written: true }] : [];
  } catch {
    // Deleted, or not to be looked at: nothing a walk can find either.
    return [];
  }
}

/** Whether `path` is this process's standard output, by its names (/dev/stdout, /dev/fd/1) or by being the same file. */
export function isStdout(path: string): boolean {
  return standardStream(path) === 1 || stdoutByFile(path) !== undefined;
}

/** This process's own streams by the names a shell gives them, as output.ts writes them, and stdout by any name. */
function streamOf(path: string): string {
  const stream = standardStream(path);
  return stream === 1 || (stream === undefined && isStdout(path)) ? 'stdout' : stream === 2 ? 'stderr' : path;
}

/**
 * `--write-baseline /dev/stdout` (or /dev/fd/1, or the file stdout is redirected to) wrote the
 * baseline into the stream of the report, two documents one after the other. A baseline alone on
 * stdout, the reports written to files, is a baseline as any other (`> baseline.json`).
 */
export function refuseBaselineOnStdout(flags: Pick<CheckFlags, 'writeBaseline' | 'output' | 'format'>): void {
  const path = flags.writeBaseline;
  if (path === undefined || !isStdout(path)) return;
  const targets = flags.format.length > 0 ? flags.format : [{ format: 'human' as const }];
  const report = targets.find(({ file }) => streamOf(file ?? flags.output ?? '-') === 'stdout');
  if (report) {
    throw new UsageError(`--write-baseline ${path}: that is standard output, where the ${report.format} report goes too, one document after the other: write the baseline to a file, or the report (-o FILE)`);
  }
}

/**
 * Two reports to one stream, where one of them is a document: `-f json -f sarif` wrote two JSON
 * documents one after the other to stdout, which no JSON reader takes (and so did
 * `-f sarif=/dev/stdout` beside it, stdout by another name). Text formats (human, github,
 * markdown) may share a stream, as in a CI log. And `-o report.txt` with every format naming a
 * file of its own got no report at all, without a word.
 */
export function refuseSharedStream(flags: Pick<CheckFlags, 'output' | 'format'>): void {
  const targets = flags.format.length > 0 ? flags.format : [{ format: 'human' as const }];
  if (flags.output !== undefined && targets.every((target) => target.file !== undefined)) {
    throw new UsageError(`--output ${flags.output}: every --format names a file of its own (${targets.map(({ format, file }) => `${format}=${file}`).join(', ')}), so no report would go to it: drop -o, or give a format without =file`);
  }
  const streams = new Map<string, FormatName[]>();
  /** A regular file that is stdout (`> r.txt -f human=r.txt`): a report written to it replaces the file, and what stdout held with it. */
  let replacing: { format: FormatName; path: string } | undefined;
  for (const { format, file } of targets) {
    const path = file ?? flags.output ?? '-';
    const stream = streamOf(path);
    // Files are held apart by the clash check, which knows whether a path is a file or a device.
    if (stream !== 'stdout' && stream !== 'stderr' && file !== undefined) continue;
    if (stream === 'stdout' && standardStream(path) === undefined && stdoutByFile(path)?.isFile()) replacing ??= { format, path };
    streams.set(stream, [...(streams.get(stream) ?? []), format]);
  }
  const onStdout = streams.get('stdout') ?? [];
  if (replacing && onStdout.length > 1) {
    const first = onStdout.indexOf(replacing.format);
    const other = onStdout.find((_, i) => i !== first)!;
    throw new UsageError(`--format: ${replacing.path} is standard output, redirected there, and ${other} goes to standard output too: writing ${replacing.path} would replace what it holds: write the ${replacing.format} report to another file`);
  }
  // stderr is the run's own messages' (an unreadable input, --max-warnings): a document there would
  // be followed by a line of them, and no reader takes it.
  const onStderr = (streams.get('stderr') ?? []).find((format) => documentFormats.includes(format));
  if (onStderr !== undefined) throw new UsageError(`--format: ${onStderr} would go to stderr, where mcec-result writes its own messages, which no ${onStderr} reader takes: write it to a file or to stdout`);
  for (const [stream, formats] of streams) {
    const document = formats.find((format) => documentFormats.includes(format));
    if (formats.length > 1 && document !== undefined) {
      const other = formats[formats.indexOf(document) === 0 ? 1 : 0]!;
      throw new UsageError(`--format: ${document} and ${other} would both go to ${stream}, one after the other, which no ${document} reader takes: write one to a file (-f ${other}=report.${extensions[other]})`);
    }
  }
}

export function parseRuleSetting(value: string): [RuleId, RuleSetting] {
  const [id = '', setting = '', ...rest] = value.split('=');
  if (!isRuleId(id)) throw new UsageError(`--rule: unknown rule ${unknownRule(id)}`);
  if (rest.length > 0 || !ruleSettings.includes(setting as RuleSetting)) {
    throw new UsageError(`--rule ${value}: expected ${id}=off, ${id}=warning or ${id}=error`);
  }
  return [id, setting as RuleSetting];
}

/** A file or name option given an empty value ('' from a script's unset variable): said, not opened as "". */
export function parseNonEmpty(option: string, what = 'file name'): (value: string) => string {
  return (value) => {
    if (value === '') throw new UsageError(`${option}: the ${what} is empty`);
    return value;
  };
}

/**
 * A settings file read or a baseline written: `-` would be standard input, which holds the records,
 * or standard output, which holds the report (`--write-baseline -` wrote a file named "-").
 */
export function parseOwnFile(option: string, stream: 'input' | 'output'): (value: string) => string {
  const nonEmpty = parseNonEmpty(option);
  return (value) => {
    // Output: said before -o is known, so not "which holds the report" (untrue with -o FILE); /dev/stdout is taken, and held to that.
    if (value === '-') throw new UsageError(stream === 'input' ? `${option}: - would be standard input, which holds the records: name a file` : `${option}: - is not taken for it: name a file, or /dev/stdout when the report goes to a file (-o FILE)`);
    return nonEmpty(value);
  };
}

/** NO_COLOR and FORCE_COLOR (https://no-color.org, https://force-color.org), then the terminal. */
export function decideColor(flag: boolean | undefined, isTTY: boolean, env: NodeJS.ProcessEnv): boolean {
  if (flag !== undefined) return flag;
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force !== 'false';
  return isTTY;
}

/** The options of `check` as commander hands them over (values already parsed). */
export interface CheckFlags extends PlainSettings {
  format: FormatTarget[];
  codes: string[];
  rule: [RuleId, RuleSetting][];
  input: 'auto' | 'json' | 'ndjson';
  unwrap: 'auto' | 'none';
  maxListed: number;
  writeBaseline?: string;
  /** A path, or false for --no-config; undefined searches from the working directory upward. */
  config?: string | false;
  shard?: { index: number; count: number };
  /** `--follow`: the one input is a file read as it grows (spec section 8.10). */
  follow?: boolean;
  fromStart?: boolean;
  /** `--print-config`: the merged settings printed, no input read. */
  printConfig?: boolean;
}

/** `--schema-version NAME`: a bundled version's name or `latest`, kept as given (the report names the version it resolves to). */
export function parseSchemaVersion(value: string): string {
  resolveSchemaVersion(value);
  return value;
}

export function parseShard(value: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  // Past 2^53 the numbers are no longer exact, and the library's own check refused them in its words.
  if (!match || count < 1 || index < 1 || index > count || !Number.isSafeInteger(count)) throw new UsageError(`--shard: expected i/n with 1 <= i <= n, got "${value}"`);
  return { index, count };
}

/**
 * Settings from a config file fill in every option the command line did not set; `rules` are merged
 * with --rule winning. `fromCommandLine(key)` tells whether the user typed that option.
 */
export function mergeConfig(flags: CheckFlags, settings: ConfigSettings, fromCommandLine: (key: string) => boolean): CheckFlags {
  const merged: CheckFlags = { ...flags };
  const take = <K extends keyof ConfigSettings & keyof CheckFlags>(key: K, convert: (value: NonNullable<ConfigSettings[K]>) => CheckFlags[K]) => {
    const value = settings[key];
    if (value !== undefined && !fromCommandLine(key)) merged[key] = convert(value as NonNullable<ConfigSettings[K]>);
  };
  const same = <T>(value: T) => value;
  take('format', (value) => [value].flat().map(parseFormatTarget));
  take('codes', (value) => [value].flat());
  for (const key of ['output', 'stdinFilename', 'baseline'] as const) take(key, same);
  // One setting (spec section 8.3): either typed replaces both of the config's.
  if (!fromCommandLine('schema') && !fromCommandLine('schemaVersion')) for (const key of ['schema', 'schemaVersion'] as const) take(key, same);
  for (const key of ['strictCodes', 'extract', 'quiet', 'exitZero', 'color', 'redact', 'progress'] as const) take(key, same);
  for (const key of ['maxLineBytes', 'maxZipEntryBytes', 'maxListed', 'maxWarnings', 'jobs', 'findingsInMemory'] as const) take(key, same);
  take('input', same);
  take('unwrap', same);
  if (settings.rules) {
    // `--strict-codes` typed today wins over the config's settings of the two rules it sets (as the
    // command line wins everywhere else), and an explicit --rule over both.
    const strictNow = fromCommandLine('strictCodes') && flags.strictCodes === true;
    const fromConfig = (Object.entries(settings.rules) as [RuleId, RuleSetting][]).filter(([id]) => !(strictNow && (id === 'unknown-code' || id === 'unknown-warning-code')));
    merged.rule = [...fromConfig, ...flags.rule];
  }
  return merged;
}

/**
 * The command line's flags over a config file's settings (mergeConfig), with the config's own
 * mistakes named as the config's (its pointer and file), never as a flag that was not typed, nor as
 * a bare `cannot read codes file /abs/x`.
 */
export function applyConfig(flags: CheckFlags, config: LoadedConfig, fromCommandLine: (key: string) => boolean): CheckFlags {
  const { settings } = config;
  const fromConfig = (key: keyof ConfigSettings) => settings[key] !== undefined && !fromCommandLine(key);
  let merged: CheckFlags;
  try {
    merged = mergeConfig(flags, settings, fromCommandLine);
    // The config's default output, where every format typed names its own file, is not used: no
    // mistake (`-o` typed so is refused, as it would get nothing).
    if (fromConfig('output') && fromCommandLine('format') && merged.format.every((target) => target.file !== undefined)) {
      const { output: _unused, ...rest } = merged;
      merged = rest;
    }
    if (fromConfig('format') || fromConfig('output')) refuseSharedStream(dashMeansStdout(merged));
  } catch (error) {
    // A format the config names ("json=", "sarf") is parsed as --format is: say which file it came from.
    if (!(error instanceof UsageError)) throw error;
    const message = error.message.replace(/^--(format|output)\b/, (option, key: 'format' | 'output') => (fromConfig(key) ? `${config.pointer}/${key}` : option));
    throw new UsageError(`config ${config.path}: ${message}`);
  }
  refuseMissingPaths(config, ['schema', 'baseline', 'codes'], fromCommandLine);
  return merged;
}

/**
 * The files a config names for `keys`, where the command line did not name its own, are there; one
 * that is not is named with the config and the key. `check` and `explain` (which reads the codes and
 * schema) say it alike.
 */
export function refuseMissingPaths(config: LoadedConfig, keys: readonly ('schema' | 'baseline' | 'codes')[], fromCommandLine: (key: string) => boolean): void {
  const { settings } = config;
  const typed = (key: string) => fromCommandLine(key) || (key === 'schema' && fromCommandLine('schemaVersion'));
  const fromConfig = (key: 'schema' | 'baseline' | 'codes') => keys.includes(key) && settings[key] !== undefined && !typed(key);
  const paths: [string, string | undefined][] = [
    ['schema', fromConfig('schema') ? settings.schema : undefined],
    ['baseline', fromConfig('baseline') ? settings.baseline : undefined],
    ...(fromConfig('codes') ? [settings.codes ?? []].flat().map((path, i, all): [string, string] => [all.length > 1 ? `codes/${i}` : 'codes', path]) : []),
  ];
  for (const [key, path] of paths) {
    if (path !== undefined && path !== '-' && !existsSync(path)) throw new UsageError(`config ${config.path}: ${config.pointer}/${key}: there is no ${path} (a config's paths are relative to its own folder)`);
  }
}

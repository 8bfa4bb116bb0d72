// The settings of a run and the context every check shares: the compiled schema, the code
// registry, the severities. Built once per run, and once per worker thread.
import { isRuleId, unknownRule } from './checks/catalog.js';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundledSchemaPath } from './assets.js';
import { type CheckContext } from './checks/check-envelope.js';
import { shorten } from './checks/envelope.js';
import { loadEnvelopeSchema } from './checks/schema-load.js';
import { isSchemaVersionChoice, resolveSchemaVersion, schemaVersionChoices } from './checks/schema-versions.js';
import { resolveSeverities, ruleSettings } from './checks/severity.js';
import { inputModes, type InputMode } from './framing/index.js';
import { maxLineBytesLimit } from './framing/ndjson.js';
import { loadRegistry } from './registry/load.js';
import { nearestName } from './registry/nearest.js';
import { aFlag, expecting, got, optionsProblem, type Check } from './option-checks.js';
import { isChunk, type StdinChunks } from './sources/stdin.js';
import type { RuleId, RuleSetting } from './types.js';
import { UsageError } from './errors.js';
import { unwrapModes, type UnwrapMode } from './unwrap/index.js';

export interface CheckOptions {
  /** Path of another envelope schema (default: the bundled MCEC schema). */
  schema?: string;
  /** The bundled schema version to check against: `2026-06`, `2026-07` or `latest` (the default). One setting with `schema`: give one. */
  schemaVersion?: string;
  /** Extra codes files merged onto the bundled registry. */
  codes?: readonly string[];
  strictCodes?: boolean;
  rules?: Partial<Record<RuleId, RuleSetting>>;
  input?: InputMode;
  unwrap?: UnwrapMode;
  stdinFilename?: string;
  maxLineBytes?: number;
  /** An input entry of a zip that inflates past this many bytes is an input failure (default 1 GiB). */
  maxZipEntryBytes?: number;
  /** Find the JSON object inside prefixed log lines; lines without one are skipped. */
  extract?: boolean;
  /** Keep envelope values (detail, result, observations) and raw text out of every message. */
  redact?: boolean;
  /** Give findings the record digest that baselines match on (costs a hash per record with findings). */
  fingerprints?: boolean;
  /**
   * Keep the text of the records with findings, for the HTML report: on the run's first findings
   * only, each cut (findings/record-text.ts). Nothing is kept with `redact`.
   */
  recordText?: boolean;
  /** Check only the i-th (1-based) of n parts of the input files, for CI matrices. */
  shard?: { index: number; count: number };
  /** What `-` reads (default: process.stdin): chunks of bytes, or of text (read as UTF-8). */
  stdin?: StdinChunks;
  /** Stops reading (Ctrl-C); the report then covers what was read, and says it was interrupted. */
  signal?: AbortSignal;
  /** Worker threads (default: the cores available, for line-delimited input large enough that workers pay for their start, `defaultParallelBytes` in src/run.ts; given, from its `parallelBytes`). The report is the same for any number. */
  jobs?: number;
  /**
   * Findings held in memory per thread (default 100,000; each distinct one, but for its line, is
   * held once, at most 1,000 of those); beyond them findings wait in a temporary file,
   * removed once the report is garbage-collected (or when the process exits), so memory does not
   * grow with the input.
   */
  findingsInMemory?: number;
  /** Called a few times a second while the run goes on (the CLI's progress line), and once when it is over. */
  onProgress?: (progress: RunProgress) => void;
  /** Files the run reads as settings or writes (config, schema, codes, baselines, reports): never inputs. */
  ownFiles?: readonly OwnFile[];
}

/** A file of the run's own, named as the user gave it. */
export interface OwnFile {
  path: string;
  /** What it is to this run, for messages: "the config file", "the report". */
  role: string;
  /** Written at the end of the run: naming it as an input too would destroy that input. */
  written: boolean;
}

export interface RunProgress {
  bytes: number;
  totalBytes: number;
  entries: number;
  findings: number;
  elapsedMs: number;
}

const isString = (value: unknown): value is string => typeof value === 'string';
// `-` is standard input on the command line, which refuses it for a settings file; here it would
// be a file named "-", which is never what a caller meant.
const aSettingsPath = (value: unknown): boolean => isString(value) && value !== '' && value !== '-';
const aPath = expecting('a path (a file, not -)', aSettingsPath);
const atLeastOne = expecting('a whole number of at least 1', (value) => Number.isSafeInteger(value) && (value as number) >= 1);
/**
 * Each worker is an isolate of its own, with a heap of its own: without a bound, --jobs 1000000
 * would start a worker per byte range and per file until the heap runs out (a V8 fatal error).
 */
export const maxJobs = 256;
const aJobCount = expecting(`a whole number from 1 to ${maxJobs}`, (value) => Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= maxJobs);
const oneOf = (values: readonly string[]) => expecting(values.length === 2 ? values.join(' or ') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`, (value) => values.includes(value as string));

function stdinProblem(stdin: unknown): string | undefined {
  // A string is iterable too, a character at a time: most likely the text itself, given whole.
  if (typeof stdin === 'string') return 'expected chunks (a Readable, or an array of Buffers or strings), got a string: give [text]';
  // A Buffer is iterable too, a number at a time: the bytes given whole, refused here, not read as an unreadable "-".
  if (stdin instanceof Uint8Array) return `expected chunks (a Readable, or an array of Buffers or strings), got a ${Buffer.isBuffer(stdin) ? 'Buffer' : 'Uint8Array'}: give [bytes]`;
  const iterable = typeof stdin === 'object' && stdin !== null && (Symbol.asyncIterator in stdin || Symbol.iterator in stdin);
  if (!iterable) return `expected chunks (a Readable, or an array of Buffers or strings), got ${got(stdin)}`;
  // An array can be held to its chunks before anything is read: a wrong one is the caller's
  // mistake, not an unreadable input (exit 2 on the command line).
  if (!Array.isArray(stdin)) return undefined;
  const chunks: readonly unknown[] = stdin;
  const wrong = chunks.findIndex((chunk) => !isChunk(chunk));
  return wrong === -1 ? undefined : `[${wrong}]: expected a Buffer, Uint8Array or string, got ${got(chunks[wrong])}`;
}

function rulesProblem(rules: unknown): string | undefined {
  if (rules === null || typeof rules !== 'object' || Array.isArray(rules)) return `expected { <rule id>: "off" | "warning" | "error" }, got ${got(rules)}`;
  for (const [id, setting] of Object.entries(rules)) {
    if (!isRuleId(id)) return `unknown rule ${unknownRule(id)}`;
    // Said of rules.<id>, not of rules.
    if (!ruleSettings.includes(setting as RuleSetting)) return `.${id}: expected off, warning or error, got ${got(setting)}`;
  }
  return undefined;
}

/** The object given, as JSON where it can be: a BigInt member or a cycle makes JSON.stringify throw. */
function shownShard(shard: object): string {
  try {
    return JSON.stringify(shard, (_key, value: unknown) => (typeof value === 'bigint' ? `${value}n` : value));
  } catch {
    return 'an object';
  }
}

function shardProblem(shard: unknown): string | undefined {
  const { index, count } = (shard ?? {}) as { index?: unknown; count?: unknown };
  const onlyThose = typeof shard === 'object' && shard !== null && Object.keys(shard).every((key) => key === 'index' || key === 'count');
  const fits = onlyThose && Number.isSafeInteger(index) && Number.isSafeInteger(count) && (index as number) >= 1 && (index as number) <= (count as number);
  return fits ? undefined : `expected { index, count } with 1 <= index <= count, got ${typeof shard === 'object' && shard !== null ? shownShard(shard) : got(shard)}`;
}

const isOwnFile = (file: unknown) => {
  const { path, role, written } = (file ?? {}) as Partial<Record<keyof OwnFile, unknown>>;
  return isString(path) && isString(role) && typeof written === 'boolean';
};

/**
 * One check per option, every option (the mapped type makes a new option without one a compile
 * error). A JavaScript caller's slip would otherwise reach the run as given: `signal: 5` would
 * read no record and report 0 without a word, `codes: 'team.json'` would read files named t, e, a
 * and m, and `maxLineByte` would be ignored.
 */
const optionChecks: { [K in keyof CheckOptions]-?: Check } = {
  schema: aPath,
  schemaVersion: expecting(`a bundled schema version: ${schemaVersionChoices.join(', ')}`, isSchemaVersionChoice),
  // Every index, holes too: every() passes over a hole, which would reach the run as a path of undefined.
  codes: expecting('an array of paths (files, not -)', (value) => Array.isArray(value) && Array.from(value).every(aSettingsPath)),
  strictCodes: aFlag,
  rules: rulesProblem,
  input: oneOf(inputModes),
  unwrap: oneOf(unwrapModes),
  stdinFilename: expecting('a name', (value) => isString(value) && value !== ''),
  maxLineBytes: (value) =>
    atLeastOne(value) ?? ((value as number) > maxLineBytesLimit ? `at most ${maxLineBytesLimit}, the longest line Node can hold as one string, got ${String(value)}` : undefined),
  maxZipEntryBytes: atLeastOne,
  extract: aFlag,
  redact: aFlag,
  fingerprints: aFlag,
  recordText: aFlag,
  shard: shardProblem,
  stdin: stdinProblem,
  // By its shape: a signal of another realm (a vm context, a test environment) is no instanceof.
  // What the run calls on it, all of it: a look-alike without removeEventListener would fail with a
  // TypeError in a stream's callback, an uncaught exception that ends the process.
  signal: expecting('an AbortSignal', (value) => typeof (value as AbortSignal | null)?.aborted === 'boolean' && ['addEventListener', 'removeEventListener'].every((method) => typeof (value as unknown as Record<string, unknown>)[method] === 'function')),
  jobs: aJobCount,
  findingsInMemory: atLeastOne,
  onProgress: expecting('a function', (value) => typeof value === 'function'),
  ownFiles: (value) => {
    if (!Array.isArray(value)) return `expected an array of { path, role, written }, got ${got(value)}`;
    const wrong = value.findIndex((file) => !isOwnFile(file));
    return wrong === -1 ? undefined : `[${wrong}]: expected { path: string, role: string, written: boolean }, got ${got(value[wrong])}`;
  },
};

/**
 * The options a library caller passes, held to what the command line accepts (which parses its
 * own): a shard of 3/2 would check nothing, and `rules: {schema: 'loud'}` would give findings a
 * severity no format knows, without a word. `undefined` is an option left out.
 */
export function assertCheckOptions(options: unknown): asserts options is CheckOptions {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw new UsageError(`check options: expected an object, got ${got(options)}`);
  // `strict` is no near miss of `strictCodes` by edit distance, but is what a caller meant.
  const near = (key: string, names: string[]) => (key.length >= 4 ? names.find((name) => name.startsWith(key)) : undefined) ?? nearestName(key, names);
  const problem = optionsProblem(options, optionChecks, near);
  if (problem !== undefined) throw new UsageError(`check options: ${problem}`);
  // Spec section 8.3: one setting, two ways to give it.
  const { schema, schemaVersion } = options as CheckOptions;
  if (schema !== undefined && schemaVersion !== undefined) throw new UsageError('check options: schema and schemaVersion are one setting (a file, or a bundled version): give one');
}

/** What createCheckContext() makes, by its shape (a context may come from another copy of the package). */
export function isCheckContext(value: unknown): value is CheckContext {
  const context = value as Partial<CheckContext> | null;
  return typeof context === 'object' && context !== null && typeof context.schema?.validate === 'function' && typeof context.registry?.isKnownErrorCode === 'function' && typeof context.severities === 'object' && context.severities !== null;
}

/** check()'s first argument: a caller's `check('run.jsonl')` would be read a character at a time. */
export function assertInputs(inputs: unknown): asserts inputs is readonly string[] {
  // An empty list (a glob list that found nothing) is refused, not a clean run of 0 inputs; the
  // command line reads standard input then, and exits 2 on a folder without input files.
  if (Array.isArray(inputs) && inputs.length === 0) throw new UsageError('check inputs: the list is empty: name files, folders or globs, or - for standard input');
  // Holes read as undefined: every() and find() skip them, and `[,]` would pass as a clean run of 0 inputs.
  const items: unknown[] | undefined = Array.isArray(inputs) ? Array.from(inputs as unknown[]) : undefined;
  if (items?.every(isString)) return;
  const hint = isString(inputs) ? `: give [${JSON.stringify(shorten(inputs))}]` : '';
  const what = items ? `an array holding ${got(items.find((item) => !isString(item)))}` : got(inputs);
  throw new UsageError(`check inputs: expected an array of paths (files, folders, globs, - for stdin), got ${what}${hint}`);
}

export function createCheckContext(options: CheckOptions = {}): CheckContext {
  assertCheckOptions(options);
  const schema = loadEnvelopeSchema(options.schema, options.schemaVersion);
  return {
    schema,
    registry: loadRegistry(options.codes, schema.categories),
    severities: resolveSeverities(options),
    codes: options.codes ?? [],
    redact: options.redact ?? false,
  };
}

/**
 * The options of `options` that would make another context than `context`: given beside a context,
 * check() would use the context's, the caller's schema or rules dropped without a word, so they are
 * refused. The same options passed to both (`check(files, opts, createCheckContext(opts))`) are no conflict.
 */
export function conflictsWithContext(options: CheckOptions, context: CheckContext): string[] {
  // The same file by any spelling: relative or absolute, through a link.
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  const samePaths = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((path, i) => real(path) === real(b[i]!));
  const conflicts: string[] = [];
  const schemaSource = context.schema.source === 'bundled' ? bundledSchemaPath(resolveSchemaVersion(context.schema.version).file) : context.schema.source;
  if (options.schema !== undefined && real(options.schema) !== real(schemaSource)) conflicts.push('schema');
  if (options.schemaVersion !== undefined && (context.schema.version === undefined || resolveSchemaVersion(options.schemaVersion).name !== context.schema.version)) conflicts.push('schemaVersion');
  if (options.codes !== undefined && !samePaths(options.codes, context.codes ?? [])) conflicts.push('codes');
  // Only what the caller's options set is compared: the rules they name, and the two rules
  // strictCodes sets unless those rules are named too.
  const severities = resolveSeverities(options);
  const named = Object.keys(options.rules ?? {}) as RuleId[];
  if (named.some((id) => severities[id] !== context.severities[id])) conflicts.push('rules');
  const strictRules = (['unknown-code', 'unknown-warning-code'] as const).filter((id) => !named.includes(id));
  if (options.strictCodes !== undefined && strictRules.some((id) => severities[id] !== context.severities[id])) conflicts.push('strictCodes');
  if (options.redact !== undefined && options.redact !== context.redact) conflicts.push('redact');
  return conflicts;
}

// `mcec-result/matchers`: `toBeMcecResult` for any test framework's `expect.extend` (Vitest's and
// Jest's take the same shape: `(received, ...args) => { pass, message }`, the framework turning it
// for `.not`). It imports no framework: `mcec-result/vitest` registers it for Vitest, Jest users
// register it themselves. The value is a bare envelope or an MCP CallToolResult (spec section 3,
// wrappings 1 and 2); the settings are the project's config file's (spec section 7) under the options given.
import { lstatSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Chalk } from 'chalk';
import { checkEnvelopeWith, jsonFormOf, type CheckContext } from './checks/check-envelope.js';
import { aConfigChoice, configFileName, configOf, envelopeSettings, type EnvelopeSettings, type LoadedConfig } from './config.js';
import { createCheckContext, optionChecks } from './context.js';
import { UsageError } from './errors.js';
import { messageWithSuggestion } from './formatters/common.js';
import { findingLines } from './formatters/human.js';
import { aFlag, expecting, got, optionsProblem, type Check } from './option-checks.js';
import { nearestName } from './registry/nearest.js';
import type { RecordFinding, RuleId, RuleSetting } from './types.js';
import { isCallToolResult, unwrapCallToolResult } from './unwrap/mcp.js';

export interface McecResultOptions {
  /** An envelope schema file to check against (relative to the working directory); one setting with `schemaVersion`. */
  schema?: string;
  /** The bundled schema version to check against: `2026-06`, `2026-07` or `latest` (the default). */
  schemaVersion?: string;
  /** Codes files (your own codes, in the format of the bundled registry), in place of the config's. */
  codes?: string | readonly string[];
  /** Rule id to `off`, `warning` or `error`, as a config file's `rules`; merged over the config's rule by rule. */
  rules?: Partial<Record<RuleId, RuleSetting>>;
  /** Warnings fail the assertion too (default: only error-severity findings do). */
  strict?: boolean;
  /**
   * The config file whose `schema`, `schemaVersion`, `codes`, `rules` and `strictCodes` apply, under
   * the options given; `false` reads none. Default: the one the command line finds, from the working
   * directory upward (`mcec-result.config.json`, or package.json's "mcec-result").
   */
  config?: string | false;
}

const pathsOf = (value: unknown) => (typeof value === 'string' ? [value] : value);
const matcherChecks: { [K in keyof McecResultOptions]-?: Check } = {
  schema: optionChecks.schema,
  schemaVersion: optionChecks.schemaVersion,
  codes: expecting('a path, or an array of paths (files, not -)', (value) => optionChecks.codes(pathsOf(value)) === undefined),
  rules: optionChecks.rules,
  strict: aFlag,
  config: aConfigChoice,
};
const optionNames = Object.keys(matcherChecks);

/** The options held to the table above: a misspelt one (`{ strcit: true }`) is refused, not taken as left out. */
function assertOptions(given: unknown, who: string): McecResultOptions {
  // null is no options: `options.strict` must not be a TypeError of the matcher's own.
  if (given === undefined || given === null) return {};
  const list = `${optionNames.slice(0, -1).join(', ')} and ${optionNames.at(-1)!}`;
  if (typeof given !== 'object' || Array.isArray(given)) throw new UsageError(`${who}: expected an options object ({ ${optionNames.join(', ')} }), got ${got(given)}`);
  const problem = optionsProblem(given, matcherChecks, nearestName, ` (the options are ${list})`);
  if (problem !== undefined) throw new UsageError(`${who}: ${problem}`);
  const options = given as McecResultOptions;
  if (options.schema !== undefined && options.schemaVersion !== undefined) throw new UsageError(`${who}: schema and schemaVersion are one setting (a file, or a bundled version): give one`);
  return options;
}

/**
 * Contexts by the settings that made them: a test file's every assertion with the same options
 * shares one compiled schema and registry. Paths are keyed absolute, so a changed working directory
 * is another key. Bounded, the oldest dropped first, for suites that vary their options widely.
 */
const contexts = new Map<string, CheckContext>();
const maxContexts = 32;

function contextOf(settings: EnvelopeSettings): CheckContext {
  const rules = Object.entries(settings.rules ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const key = JSON.stringify([settings.schema === undefined ? null : resolve(settings.schema), settings.schemaVersion ?? null, (settings.codes ?? []).map((path) => resolve(path)), settings.strictCodes === true, rules]);
  let context = contexts.get(key);
  if (context === undefined) {
    context = createCheckContext(settings);
    if (contexts.size >= maxContexts) contexts.delete(contexts.keys().next().value!);
    contexts.set(key, context);
  }
  return context;
}

/** What a file is now, by its identity, size and times: a stamp that changes when it is written, replaced or removed. */
function fileStamp(path: string): string {
  const stats = statSync(path, { bigint: true, throwIfNoEntry: false });
  // A link that leads to no file is no config, and findConfig() says so: its own stamp tells it from none.
  const link = stats === undefined ? lstatSync(path, { throwIfNoEntry: false }) : undefined;
  return stats === undefined ? (link === undefined ? '-' : 'dangling') : `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** The stamps of every file the config search from `cwd` upward may read (src/config.ts `findConfig`). */
function searchStamp(cwd: string): string {
  const stamps: string[] = [];
  for (let folder = cwd; ; folder = dirname(folder)) {
    stamps.push(fileStamp(join(folder, configFileName)), fileStamp(join(folder, 'package.json')));
    if (dirname(folder) === folder) return stamps.join(' ');
  }
}

/**
 * Configs by working directory and `config` option, kept while the files the search reads are
 * unchanged: a config file is read and validated again only after a test writes one, not on every
 * assertion.
 */
const configs = new Map<string, { stamp: string; config: LoadedConfig | undefined }>();

function configFor(flag: string | false | undefined): LoadedConfig | undefined {
  if (flag === false) return undefined;
  const cwd = process.cwd();
  const key = JSON.stringify([cwd, flag ?? null]);
  const stamp = flag === undefined ? searchStamp(cwd) : fileStamp(resolve(flag));
  const known = configs.get(key);
  if (known?.stamp === stamp) return known.config;
  const config = configOf(flag);
  if (configs.size >= maxContexts) configs.delete(configs.keys().next().value!);
  configs.set(key, { stamp, config });
  return config;
}

/** The context of `options`, the config file's settings under those given, and the config's path when one applies. */
function contextFor(options: McecResultOptions): { context: CheckContext; configPath?: string } {
  const { strict: _strict, config: flag, codes, ...rest } = options;
  const given: EnvelopeSettings = { ...rest, ...(codes !== undefined && { codes: [codes].flat() }) };
  const config = configFor(flag);
  return { context: contextOf(envelopeSettings(config, given)), ...(config !== undefined && { configPath: config.path }) };
}

function findingsWith(context: CheckContext, given: unknown): RecordFinding[] {
  const checkEnvelope = (envelope: unknown) => [...checkEnvelopeWith(context, envelope)];
  // Held to JSON once, before unwrapping: the value is checked as the JSON it is sent as, and
  // comparing a structuredContent that refers to itself would never end.
  const value = jsonFormOf(given);
  if (!isCallToolResult(value)) return checkEnvelope(value);
  const unwrapped = unwrapCallToolResult(value, context.redact);
  // The wrapper's findings carry no severity: the context's is the rule's, `rules` and strictCodes applied.
  const findings: RecordFinding[] = [];
  for (const { rule, ...report } of unwrapped.findings) {
    const severity = context.severities[rule];
    if (severity !== 'off') findings.push({ rule, severity, ...report });
  }
  if (unwrapped.found) findings.push(...checkEnvelope(unwrapped.envelope));
  return findings;
}

/** Every finding for `value` (the MCP wrapper's own, isError and structuredContent, and the envelope's), with the matcher's settings. */
export function mcecFindings(value: unknown, options?: McecResultOptions): RecordFinding[] {
  return findingsWith(contextFor(assertOptions(options, 'mcecFindings')).context, value);
}

const plain = new Chalk({ level: 0 });

/** Each finding on a line of its own, as the command line's human format lists them, its place the pointer. */
function describeFindings(findings: readonly RecordFinding[]): string {
  const places = findings.map((finding) => (finding.pointer ? finding.pointer : '(root)'));
  return findingLines(findings, places, findings.map(messageWithSuggestion), plain)
    .map((line) => `  ${line}`)
    .join('\n');
}

function toBeMcecResult(received: unknown, given?: McecResultOptions) {
  const options = assertOptions(given, 'toBeMcecResult');
  const { context, configPath } = contextFor(options);
  const findings = findingsWith(context, received);
  const failing = findings.filter((finding) => options.strict === true || finding.severity === 'error');
  const pass = failing.length === 0;
  const what = options.strict === true ? 'a conformant MCEC result (strict: warnings fail too)' : 'a conformant MCEC result';
  // A config found upward decides codes and severities unseen in the test: the message names it.
  const settings = () => (configPath === undefined ? '' : `\n(settings from ${relative(process.cwd(), resolve(configPath)) || configPath})`);
  const message = pass
    ? () => `expected value not to be ${what}, but it has ${findings.length > 0 ? `only warnings:\n${describeFindings(findings)}` : 'no finding'}${settings()}`
    : () => `expected value to be ${what}, but:\n${describeFindings(findings)}${settings()}`;
  return { pass, message, actual: received };
}

/** The matchers for `expect.extend(mcecMatchers)`, in Vitest or Jest. */
export const mcecMatchers = { toBeMcecResult };

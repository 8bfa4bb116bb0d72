// The settings of a run and the context every check shares: the compiled schema, the code
// registry, the severities. Built once per run, and once per worker thread.
import { isRuleId, unknownRule } from './checks/catalog.js';
import { type CheckContext } from './checks/check-envelope.js';
import { loadEnvelopeSchema } from './checks/schema-load.js';
import { resolveSeverities, ruleSettings } from './checks/severity.js';
import { inputModes, type InputMode } from './framing/index.js';
import { maxMaxLineBytes } from './framing/ndjson.js';
import { loadRegistry } from './registry/load.js';
import type { StdinChunks } from './sources/stdin.js';
import type { RuleId, RuleSetting } from './types.js';
import { UsageError } from './errors.js';
import { unwrapModes, type UnwrapMode } from './unwrap/index.js';

export interface CheckOptions {
  /** Path of another envelope schema (default: the bundled MCEC schema). */
  schema?: string;
  /** Extra codes files merged onto the bundled registry. */
  codes?: readonly string[];
  strictCodes?: boolean;
  rules?: Partial<Record<RuleId, RuleSetting>>;
  input?: InputMode;
  unwrap?: UnwrapMode;
  stdinFilename?: string;
  maxLineBytes?: number;
  /** Find the JSON object inside prefixed log lines; lines without one are skipped. */
  extract?: boolean;
  /** Keep envelope values (detail, result, observations) and raw text out of every message. */
  redact?: boolean;
  /** Give findings the record digest that baselines match on (costs a hash per record with findings). */
  fingerprints?: boolean;
  /** Check only the i-th (1-based) of n parts of the input files, for CI matrices. */
  shard?: { index: number; count: number };
  /** What `-` reads (default: process.stdin): chunks of bytes, or of text (read as UTF-8). */
  stdin?: StdinChunks;
  /** Stops reading (Ctrl-C); the report then covers what was read, and says it was interrupted. */
  signal?: AbortSignal;
  /** Worker threads (default: the cores available). The report is the same for any number. */
  jobs?: number;
  /**
   * Findings held as objects per thread (default 1,000); beyond them findings wait in a temporary
   * file, removed once the report is garbage-collected (or when the process exits), so memory does
   * not grow with the input.
   */
  findingsInMemory?: number;
  /** Called a few times a second while the run goes on (the CLI's progress line). */
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

function atLeastOne(name: string, value: number | undefined): string | undefined {
  if (value === undefined || (Number.isSafeInteger(value) && value >= 1)) return undefined;
  return `${name}: expected a whole number of at least 1, got ${String(value)}`;
}

function stdinProblem(stdin: unknown): string | undefined {
  if (stdin === undefined) return undefined;
  // A string is iterable too, a character at a time: most likely the text itself, given whole.
  if (typeof stdin === 'string') return 'stdin: expected chunks (a Readable, or an array of Buffers or strings), got a string: give [text]';
  const iterable = typeof stdin === 'object' && stdin !== null && (Symbol.asyncIterator in stdin || Symbol.iterator in stdin);
  return iterable ? undefined : `stdin: expected chunks (a Readable, or an array of Buffers or strings), got ${stdin === null ? 'null' : typeof stdin}`;
}

/**
 * The options a library caller passes, held to what the command line accepts (which parses its
 * own): a shard of 3/2 checked nothing, and `rules: {schema: 'loud'}` gave findings a severity no
 * format knows, without a word.
 */
export function assertCheckOptions(options: CheckOptions): void {
  const { shard, input, unwrap } = options;
  const problems = [
    stdinProblem(options.stdin),
    atLeastOne('jobs', options.jobs),
    atLeastOne('findingsInMemory', options.findingsInMemory),
    atLeastOne('maxLineBytes', options.maxLineBytes),
    options.maxLineBytes !== undefined && options.maxLineBytes > maxMaxLineBytes
      ? `maxLineBytes: at most ${maxMaxLineBytes}, the longest line Node can hold as one string, got ${options.maxLineBytes}`
      : undefined,
    shard && !(Number.isSafeInteger(shard.index) && Number.isSafeInteger(shard.count) && shard.index >= 1 && shard.index <= shard.count)
      ? `shard: expected { index, count } with 1 <= index <= count, got ${JSON.stringify(shard)}`
      : undefined,
    input !== undefined && !inputModes.includes(input) ? `input: expected auto, json or ndjson, got ${JSON.stringify(input)}` : undefined,
    unwrap !== undefined && !unwrapModes.includes(unwrap) ? `unwrap: expected ${unwrapModes.join(' or ')}, got ${JSON.stringify(unwrap)}` : undefined,
    ...Object.entries(options.rules ?? {}).map(([id, setting]) =>
      !isRuleId(id) ? `rules: unknown rule ${unknownRule(id)}` : !ruleSettings.includes(setting) ? `rules.${id}: expected off, warning or error, got ${JSON.stringify(setting)}` : undefined,
    ),
  ];
  const first = problems.find((problem) => problem !== undefined);
  if (first !== undefined) throw new UsageError(`check options: ${first}`);
}

export function createCheckContext(options: CheckOptions = {}): CheckContext {
  assertCheckOptions(options);
  const schema = loadEnvelopeSchema(options.schema);
  return {
    schema,
    registry: loadRegistry(options.codes, schema.categories),
    severities: resolveSeverities(options),
    redact: options.redact ?? false,
  };
}


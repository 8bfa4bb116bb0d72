// The pipeline, end to end: sources -> framing -> unwrap -> checks -> tally -> Report.
// Nothing here prints; the CLI decides what to do with the report.
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { packageVersion } from './assets.js';
import { checkEnvelopeWith, ruleFinding, type CheckContext } from './checks/check-envelope.js';
import { loadEnvelopeSchema } from './checks/schema-load.js';
import { resolveSeverities } from './checks/severity.js';
import { errorObject, stringMember } from './checks/envelope.js';
import { describeError } from './errors.js';
import { fingerprint } from './fingerprint.js';
import { frameInput, framingFor, type InputMode } from './framing/index.js';
import { loadRegistry } from './registry/load.js';
import { InputDataError, decodeInput, type ChunkSource } from './sources/decode.js';
import { expandInputs, type InputSource } from './sources/expand.js';
import { Tally } from './tally.js';
import type { Finding, Framed, InputFailure, RecordFinding, Report, RuleId, RuleSetting, Wrapping } from './types.js';
import { unwrappers, type UnwrapMode } from './unwrap/index.js';

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
  /** What `-` reads (default: process.stdin). */
  stdin?: AsyncIterable<Buffer>;
  /** Stops reading (Ctrl-C); the report then covers what was read, and says it was interrupted. */
  signal?: AbortSignal;
}

export function createCheckContext(options: CheckOptions = {}): CheckContext {
  return {
    schema: loadEnvelopeSchema(options.schema),
    registry: loadRegistry(options.codes),
    severities: resolveSeverities(options),
    redact: options.redact ?? false,
  };
}

function byPlace(a: Finding, b: Finding): number {
  return a.location.line - b.location.line || (a.location.column ?? 0) - (b.location.column ?? 0) || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0);
}

interface Place {
  source: string;
  line: number;
  column?: number;
  tool?: string;
  wrapping?: Wrapping;
  code?: string;
  fingerprint?: string;
}

function locate(finding: RecordFinding, place: Place): Finding {
  const { pointer, ...rest } = finding;
  return {
    ...rest,
    location: {
      source: place.source,
      line: place.line,
      ...(place.column !== undefined && { column: place.column }),
      ...(pointer !== undefined && { pointer }),
    },
    ...(place.tool !== undefined && { tool: place.tool }),
    ...(place.wrapping !== undefined && { wrapping: place.wrapping }),
    ...(place.code !== undefined && { code: place.code }),
    ...(place.fingerprint !== undefined && { fingerprint: place.fingerprint }),
  };
}

class SourceChecker {
  readonly findings: Finding[] = [];
  entries = 0;
  private readonly unwrapper;

  constructor(
    private readonly source: InputSource,
    private readonly context: CheckContext,
    private readonly tally: Tally,
    unwrap: UnwrapMode,
    private readonly fingerprints: boolean,
  ) {
    this.unwrapper = unwrappers[unwrap]({ check: context });
  }

  /** What a baseline matches a record's findings on; computed only when asked for and needed. */
  private identity(value: unknown, count: number): { fingerprint?: string; code?: string } {
    if (!this.fingerprints || count === 0) return {};
    const error = errorObject(value);
    const code = error && stringMember(error, 'code');
    return { fingerprint: fingerprint(value), ...(code !== undefined && { code }) };
  }

  private add(finding: RecordFinding | undefined, place: Omit<Place, 'source'>): void {
    if (finding) this.findings.push(locate(finding, { source: this.source.name, ...place }));
  }

  /** Takes each framed entry as framing produces it (the checker is framing's sink). */
  push(framed: Framed): void {
    this.entries++;
    if (framed.kind === 'unparseable') {
      this.tally.addUnparseable();
      this.add(ruleFinding(this.context, 'parse-error', { message: framed.message }), {
        line: framed.line,
        ...(framed.column !== undefined && { column: framed.column }),
        ...this.identity(`parse-error:${framed.column ?? 0}:${framed.message}`, 1),
      });
      return;
    }
    if (framed.kind === 'noise') {
      this.tally.addSkipped();
      return;
    }
    const unwrapped = this.unwrapper.unwrap(framed);
    if (unwrapped.kind === 'skipped') {
      this.tally.addSkipped(unwrapped);
      const identity = this.identity(framed.value, unwrapped.findings.length);
      for (const finding of unwrapped.findings) this.add(finding, { line: framed.line, ...identity });
      return;
    }
    let findings = unwrapped.findings;
    if (unwrapped.hasEnvelope) {
      const checked = checkEnvelopeWith(this.context, unwrapped.envelope);
      findings = findings.length === 0 ? checked : findings.concat(checked);
    }
    const { tool, sessionId, wrapping } = unwrapped;
    let invalid = false;
    for (const finding of findings) if (finding.severity === 'error') invalid = true;
    this.tally.addRecord(unwrapped.envelope, invalid, tool, sessionId);
    if (findings.length === 0) return;
    const identity = this.identity(unwrapped.hasEnvelope ? unwrapped.envelope : framed.value, findings.length);
    for (const finding of findings) this.add(finding, { line: framed.line, wrapping, ...(tool !== undefined && { tool }), ...identity });
  }

  finish(readFailed: boolean): void {
    for (const late of this.unwrapper.finish()) {
      this.add(late.finding, {
        line: late.line,
        ...(late.tool !== undefined && { tool: late.tool }),
        ...(late.wrapping !== undefined && { wrapping: late.wrapping }),
        ...this.identity(`${late.finding.rule}:${late.finding.message}`, 1),
      });
    }
    if (this.entries === 0 && !readFailed) this.add(ruleFinding(this.context, 'empty-input', { message: 'the input holds no record' }), { line: 1, ...this.identity('empty-input', 1) });
    this.findings.sort(byPlace);
  }
}

const maxChunk = 1 << 20;

/**
 * A file up to one chunk is read in one synchronous call: for 10k small files, the thread-pool
 * round trips of open/read/close were most of the time. Larger files stream in 1 MiB chunks.
 */
function openFile(path: string): ChunkSource {
  if (statSync(path).size <= maxChunk) return [readFileSync(path)];
  return createReadStream(path, { highWaterMark: maxChunk });
}

async function checkSource(source: InputSource, context: CheckContext, tally: Tally, options: CheckOptions): Promise<{ findings: Finding[]; failure?: InputFailure }> {
  const checker = new SourceChecker(source, context, tally, options.unwrap ?? 'auto', options.fingerprints ?? false);
  let failure: InputFailure | undefined;
  try {
    let raw: ChunkSource = source.path === undefined ? (options.stdin ?? process.stdin) : openFile(source.path);
    // An idle pipe never yields again: aborting destroys the stream so the loop below ends at once.
    if (options.signal && 'destroy' in raw) raw = addAbortSignal(options.signal, raw as Readable);
    const chunks = await decodeInput(raw);
    await frameInput(chunks, framingFor(source.path, options.input ?? 'auto'), options, checker);
  } catch (error) {
    if (options.signal?.aborted) {
      checker.finish(true);
      return { findings: checker.findings };
    }
    const message = error instanceof InputDataError ? `${source.name}: ${error.message}` : `cannot read ${source.name}: ${describeError(error)}`;
    failure = { source: source.name, message };
  }
  checker.finish(failure !== undefined);
  return { findings: checker.findings, ...(failure && { failure }) };
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Spec section 7: files sorted by path, the k-th (0-based) goes to shard (k mod n) + 1. */
export function inShard(sources: readonly InputSource[], shard: { index: number; count: number }): InputSource[] {
  const names = sources.map((s) => s.name).sort(byCodePoint);
  const mine = new Set(names.filter((_, k) => (k % shard.count) + 1 === shard.index));
  return sources.filter((s) => mine.has(s.name));
}

/** Checks every input and returns the finished report (spec section 6). */
export async function check(inputs: readonly string[], options: CheckOptions = {}, context = createCheckContext(options)): Promise<Report> {
  const expanded = await expandInputs(inputs, options.stdinFilename ?? '-');
  const { failures } = expanded;
  const sources = options.shard ? inShard(expanded.sources, options.shard) : expanded.sources;
  const tally = new Tally(context.schema.categories, context.registry);
  const findings: Finding[] = [];
  for (const source of sources) {
    if (options.signal?.aborted) break;
    tally.inputs++;
    const result = await checkSource(source, context, tally, options);
    for (const finding of result.findings) findings.push(finding);
    if (result.failure) failures.push(result.failure);
  }
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: packageVersion },
    schema: { ...(context.schema.id !== undefined && { id: context.schema.id }), source: context.schema.source },
    summary: tally.summary(findings),
    findings,
    suggestions: tally.suggestions(),
    inputFailures: failures,
    interrupted: options.signal?.aborted ?? false,
  };
}

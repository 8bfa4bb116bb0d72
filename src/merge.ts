// `mcec-result merge`: JSON reports of shards (spec section 4, --shard) combined into one report,
// which any formatter can then render; or their baselines into one baseline (src/baseline.ts).
// Counts and distributions are summed; findings are in input path order, then line, column and
// rule, the order of one run over the folders the shards split. A report's findings are read one at
// a time (src/report-reader.ts) into stores as check keeps its own (src/findings/store.ts), so that
// a merge's memory does not grow with its reports.
import { posix } from 'node:path';
import { setImmediate as macrotask } from 'node:timers/promises';
import { packageVersion, readJsonAsset } from './assets.js';
import { UsageError } from './errors.js';
import { printable } from './formatters/common.js';
import type { JsonFinding, JsonReport } from './formatters/json.js';
import type { Baseline } from './baseline.js';
import { baselineFolder, baselineSchema } from './baseline.js';
import { isObject } from './checks/envelope.js';
import { unversionedSchemaVersion } from './checks/schema-versions.js';
import { byCodePoint, byPlace } from './findings/order.js';
import { ConcatList, FindingStore, SpillBudget, StoredList } from './findings/store.js';
import type { ValidateFunction } from 'ajv';
import { ownSchemaValidator } from './lazy.js';
import { readJsonFile, reportFindingSchema, validatedJson } from './load-json.js';
import { withOutcomeCounts } from './report-upgrade.js';
import { streamReport } from './report-reader.js';
import type { CodeRegistry } from './registry/registry.js';
import { mergeSummaries, suggestionsFor } from './tally.js';
import type { Finding, FindingList, Report } from './types.js';

const mergeTakes = 'merge takes reports of check --format json, or baselines of check --write-baseline';

/** A report read for merging: all of it but its findings, which went into the merge's stores. */
export interface ReadReport {
  path: string;
  report: Omit<JsonReport, 'findings'>;
  /** The inputs with findings in this report. */
  sources: Set<string>;
}

/** What `merge` was given: JSON reports, or baselines (of --shard runs), told apart by `baselineVersion`. */
export type MergeInputs = { kind: 'reports'; reports: ReadReport[]; findings: MergedFindings } | { kind: 'baselines'; baselines: { baseline: Baseline; folder: string; path: string }[] };

const reportSchema = 'schemas/report-v1.schema.json';

let findingValidator: ValidateFunction | undefined;

/** Whether `value` is a finding of a JSON report, by the report schema. */
function isReportFinding(value: unknown): boolean {
  findingValidator ??= ownSchemaValidator('report-v1-finding', reportFindingSchema(readJsonAsset(reportSchema) as object));
  return findingValidator(value) as boolean;
}

/**
 * Reading a report is synchronous; between reports the event loop turns, so that a Ctrl-C (or
 * SIGTERM) is heard within one report's read, not after all of them (test/robustness.test.ts,
 * "Ctrl-C while merge reads its reports").
 */
export async function readMergeInputs(paths: readonly string[]): Promise<MergeInputs> {
  const reports: ReadReport[] = [];
  const baselines: { path: string; baseline: Baseline }[] = [];
  const findings = new MergedFindings();
  for (const path of paths) {
    await macrotask();
    const sources = new Set<string>();
    const take = findings.reader(sources);
    // Standard input is read whole: it cannot be read again for what is wrong in it.
    const streamed = path === '-' ? ({ kind: 'whole' } as const) : streamReport(path, isReportFinding, take as (finding: unknown) => void);
    // Streamed, the report but its findings (checked one by one); else the whole file, which says
    // what the stream found wrong (an ndjson report, as check --format ndjson writes, is said with
    // what merge takes, not as a bare parse error at its line 2).
    const data = streamed.kind === 'report' ? streamed.head : readJsonFile(path, 'report', path === '-', mergeTakes);
    if (isObject(data) && Object.hasOwn(data, 'baselineVersion')) {
      baselines.push({ path, baseline: validatedJson<Baseline>(data, path, 'baseline', baselineSchema, mergeTakes) });
      continue;
    }
    const { findings: listed, ...report } = validatedJson<JsonReport>(withOutcomeCounts(data), path, 'report', reportSchema, mergeTakes);
    if (streamed.kind === 'invalid') throw new Error(`merge: ${path}: read as a stream, it is no JSON report; read whole, it is one`);
    // All of them read whole; streamed, those under a key spelt with escapes.
    listed.forEach(take);
    reports.push({ path, report, sources });
  }
  if (reports.length > 0 && baselines.length > 0) {
    throw new UsageError(`merge: ${reports[0]!.path} is a report and ${baselines[0]!.path} a baseline: merge reports with reports, and baselines with baselines`);
  }
  return baselines.length > 0 ? { kind: 'baselines', baselines: baselines.map(({ path, baseline }) => ({ baseline, folder: baselineFolder(path), path })) } : { kind: 'reports', reports, findings };
}

/**
 * Assigned field by field, in the order check makes its findings: object rest and spreads cost more
 * on every finding, and would give the findings shapes unlike check's, which slow every later read
 * of them.
 */
function fromJsonFinding(finding: JsonFinding): Finding {
  const location: Finding['location'] = { source: finding.source, line: finding.line };
  if (finding.column !== undefined) location.column = finding.column;
  if (finding.pointer !== undefined) location.pointer = finding.pointer;
  const made: Finding = { rule: finding.rule as Finding['rule'], severity: finding.severity, message: finding.message, location };
  if (finding.keyword !== undefined) made.keyword = finding.keyword;
  if (finding.schemaPath !== undefined) made.schemaPath = finding.schemaPath;
  if (finding.suggestion !== undefined) made.suggestion = finding.suggestion;
  if (finding.tool !== undefined) made.tool = finding.tool;
  if (finding.wrapping !== undefined) made.wrapping = finding.wrapping;
  return made;
}

/**
 * What to say of inputs with findings in two of the reports: checked twice (a report copied under
 * another name, the shards of two runs), so their records count twice in the merge. The shards of
 * one run share none; an input without findings cannot be told, since a report does not list its inputs.
 */
export function sharedInputsWarning(reports: readonly ReadReport[]): string | undefined {
  const reportOf = new Map<string, string>();
  const shared: { source: string; first: string; second: string }[] = [];
  for (const { path, sources } of reports) {
    for (const source of sources) {
      const first = reportOf.get(source);
      if (first === undefined) reportOf.set(source, path);
      else shared.push({ source, first, second: path });
    }
  }
  const [one, ...more] = shared;
  if (one === undefined) return undefined;
  const others = more.length > 0 ? ` (and ${more.length} more input${more.length === 1 ? '' : 's'} in two reports)` : '';
  return `merge: ${printable(one.source)} has findings in both ${one.first} and ${one.second}${others}: its records count twice (the shards of one run share no input)`;
}

/** An input's findings in the merge, and the last taken in order (for telling the others). */
interface MergedInput {
  store: FindingStore;
  last: Finding | undefined;
}

/**
 * The merged report's findings. Shards take every n-th file of the sorted inputs, so the reports'
 * findings one after the other go shard by shard (a.jsonl, d.jsonl, b.jsonl, e.jsonl, ...): they
 * are listed by input path (code point), then as in one input, by place: the order of a run over the
 * folders the shards split. Held per input, as check holds a unit's (each kind once, then two numbers
 * a finding, spooled past the budget), so that merging many large reports never holds them all as
 * objects. An input's findings come in place order, as a report lists them, but for its
 * findings in a second report (and any a hand-edited report lists out of order): those are held as
 * objects, and merged in as the store is read, where a
 * stable sort of all of them would put them.
 */
export class MergedFindings {
  private readonly budget = new SpillBudget();
  private readonly inputs = new Map<string, MergedInput>();

  /** Takes a report's findings one by one, as they are read; `sources` gets the inputs they are of. */
  reader(sources: Set<string>): (listed: JsonFinding) => void {
    // A report lists an input's findings together: the input is looked up when the next one starts.
    let source: string | undefined;
    let input: MergedInput | undefined;
    return (listed) => {
      const finding = fromJsonFinding(listed);
      if (input === undefined || listed.source !== source) {
        source = listed.source;
        input = this.inputs.get(source);
        if (input === undefined) this.inputs.set(source, (input = { store: new FindingStore(this.budget), last: undefined }));
        sources.add(source);
      }
      if (input.last !== undefined && byPlace(finding, input.last) < 0) return input.store.appendUnsorted(finding);
      input.store.append(finding);
      input.last = finding;
    };
  }

  /** Every finding taken, in path order; a list every formatter may walk again. */
  list(): FindingList {
    return new ConcatList([...this.inputs.keys()].sort(byCodePoint).map((source) => new StoredList(this.inputs.get(source)!.store.seal())));
  }
}

/**
 * The bundled schema version a report was checked against (spec section 8.3): its `schema.version`,
 * or for a report written before versions were recorded, 2026-06 when it used the bundled schema.
 * Undefined for a `--schema` file, which its id and source tell apart.
 */
function reportSchemaVersion(schema: Report['schema']): string | undefined {
  return schema.version ?? (schema.source === 'bundled' ? unversionedSchemaVersion : undefined);
}

function oldReportNote(...schemas: Report['schema'][]): string {
  return schemas.some((schema) => schema.source === 'bundled' && schema.version === undefined) ? ` (a report without schema.version was written before versions were recorded, against ${unversionedSchemaVersion})` : '';
}

export function mergeReports(reports: readonly ReadReport[], findings: MergedFindings, registry: CodeRegistry): Report {
  const first = reports[0];
  if (!first) throw new UsageError('merge: name at least one JSON report');
  // The same file however it was spelt on each machine (`--schema ./s.json`, `--schema s.json`).
  const sourceKey = (source: string) => posix.normalize(source.replaceAll('\\', '/'));
  for (const { path, report } of reports) {
    const [version, firstVersion] = [reportSchemaVersion(report.schema), reportSchemaVersion(first.report.schema)];
    if (version !== firstVersion) {
      const against = (schema: Report['schema'], name: string | undefined) => (name === undefined ? `the schema ${schema.source}` : `schema version ${name}`);
      throw new UsageError(`merge: ${path} was checked against ${against(report.schema, version)}, ${first.path} against ${against(first.report.schema, firstVersion)}: merge reports of one schema version${oldReportNote(report.schema, first.report.schema)}`);
    }
    const [digest, firstDigest] = [report.schema.sha256, first.report.schema.sha256];
    if (digest !== undefined && firstDigest !== undefined && digest !== firstDigest) {
      throw new UsageError(`merge: ${path} was checked against a schema of SHA-256 ${digest}, ${first.path} against one of ${firstDigest} (${report.schema.source}): the schema file changed between the runs`);
    }
    if (report.schema.id !== first.report.schema.id || sourceKey(report.schema.source) !== sourceKey(first.report.schema.source)) {
      throw new UsageError(`merge: ${path} was checked against another schema (${report.schema.source}) than ${first.path} (${first.report.schema.source})`);
    }
  }
  const summary = mergeSummaries(reports.map((r) => r.report.summary));
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: packageVersion() },
    // A report written before versions were recorded says less of the same schema than one after.
    schema: (reports.find((r) => r.report.schema.sha256 !== undefined) ?? first).report.schema,
    summary,
    findings: findings.list(),
    suggestions: suggestionsFor(summary, registry),
    // A shard's unreadable inputs and Ctrl-C stay the merged run's: the merge is the verdict of the
    // matrix, and must not pass (exit 0) over shards that exited 2 or 130.
    inputFailures: summary.unreadable ?? [],
    // JSON reports hold no record text: the HTML report says so.
    recordText: 'merged',
    interrupted: summary.interrupted === true,
  };
}

// `mcec-result merge`: JSON reports of shards (spec section 4, --shard) combined into one report,
// which any formatter can then render; or their baselines into one baseline (src/baseline.ts).
// Counts and distributions are summed; findings are in input path order, then line, column and
// rule, the order of one run over the folders the shards split.
import { posix } from 'node:path';
import { packageVersion } from './assets.js';
import { UsageError } from './errors.js';
import { printable } from './formatters/common.js';
import type { JsonFinding, JsonReport } from './formatters/json.js';
import type { Baseline } from './baseline.js';
import { baselineFolder, baselineSchema } from './baseline.js';
import { isObject } from './checks/envelope.js';
import { byCodePoint, byPlace } from './findings/order.js';
import { readJsonFile, validatedJson } from './load-json.js';
import type { CodeRegistry } from './registry/registry.js';
import { mergeSummaries, suggestionsFor } from './tally.js';
import type { Finding, Report } from './types.js';

const mergeTakes = 'merge takes reports of check --format json, or baselines of check --write-baseline';

/** What `merge` was given: JSON reports, or baselines (of --shard runs), told apart by `baselineVersion`. */
export type MergeInputs = { kind: 'reports'; reports: { path: string; report: JsonReport }[] } | { kind: 'baselines'; baselines: { baseline: Baseline; folder: string }[] };

export function readMergeInputs(paths: readonly string[]): MergeInputs {
  const reports: { path: string; report: JsonReport }[] = [];
  const baselines: { path: string; baseline: Baseline }[] = [];
  for (const path of paths) {
    // An ndjson report (check --format ndjson) was a bare parse error at its line 2.
    const data = readJsonFile(path, 'report', path === '-', mergeTakes);
    if (isObject(data) && Object.hasOwn(data, 'baselineVersion')) baselines.push({ path, baseline: validatedJson<Baseline>(data, path, 'baseline', baselineSchema, mergeTakes) });
    else reports.push({ path, report: validatedJson<JsonReport>(data, path, 'report', 'schemas/report-v1.schema.json', mergeTakes) });
  }
  if (reports.length > 0 && baselines.length > 0) {
    throw new UsageError(`merge: ${reports[0]!.path} is a report and ${baselines[0]!.path} a baseline: merge reports with reports, and baselines with baselines`);
  }
  return baselines.length > 0 ? { kind: 'baselines', baselines: baselines.map(({ path, baseline }) => ({ baseline, folder: baselineFolder(path) })) } : { kind: 'reports', reports };
}

function fromJsonFinding(finding: JsonFinding): Finding {
  const { source, line, column, pointer, rule, ...rest } = finding;
  return {
    ...rest,
    rule: rule as Finding['rule'],
    location: { source, line, ...(column !== undefined && { column }), ...(pointer !== undefined && { pointer }) },
  };
}

/**
 * What to say of inputs with findings in two of the reports: checked twice (a report copied under
 * another name, the shards of two runs), so their records count twice in the merge. The shards of
 * one run share none; an input without findings cannot be told, since a report does not list its inputs.
 */
export function sharedInputsWarning(reports: readonly { path: string; report: JsonReport }[]): string | undefined {
  const reportOf = new Map<string, string>();
  const shared: { source: string; first: string; second: string }[] = [];
  for (const { path, report } of reports) {
    for (const source of new Set(report.findings.map((finding) => finding.source))) {
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

/**
 * Shards take every n-th file of the sorted inputs, so the reports' findings one after the other
 * went shard by shard (a.jsonl, d.jsonl, b.jsonl, e.jsonl, ...). Sorted by input path (code point),
 * then as in one input: the order of a run over the folders the shards split.
 */
function inPathOrder(findings: Finding[]): Finding[] {
  return findings.sort((a, b) => byCodePoint(a.location.source, b.location.source) || byPlace(a, b));
}

export function mergeReports(reports: readonly { path: string; report: JsonReport }[], registry: CodeRegistry): Report {
  const first = reports[0];
  if (!first) throw new UsageError('merge: name at least one JSON report');
  // The same file however it was spelt on each machine (`--schema ./s.json`, `--schema s.json`).
  const sourceKey = (source: string) => posix.normalize(source.replaceAll('\\', '/'));
  for (const { path, report } of reports) {
    if (report.schema.id !== first.report.schema.id || sourceKey(report.schema.source) !== sourceKey(first.report.schema.source)) {
      throw new UsageError(`merge: ${path} was checked against another schema (${report.schema.source}) than ${first.path} (${first.report.schema.source})`);
    }
  }
  const summary = mergeSummaries(reports.map((r) => r.report.summary));
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: packageVersion() },
    schema: first.report.schema,
    summary,
    findings: inPathOrder(reports.flatMap((r) => r.report.findings.map(fromJsonFinding))),
    suggestions: suggestionsFor(summary, registry),
    // A shard's unreadable inputs and Ctrl-C stay the merged run's: the merge is the verdict of the
    // matrix, and it passed (exit 0) over shards that had exited 2 or 130.
    inputFailures: summary.unreadable ?? [],
    interrupted: summary.interrupted === true,
  };
}

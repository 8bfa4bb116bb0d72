// `mcec-result merge`: JSON reports of shards (spec section 4, --shard) combined into one report,
// which any formatter can then render. Counts and distributions are summed; findings keep the
// order of the reports as given (each report's findings are already in its inputs' order).
import type { ValidateFunction } from 'ajv';
import { packageVersion, readJsonAsset } from './assets.js';
import { UsageError } from './errors.js';
import type { JsonFinding, JsonReport } from './formatters/json.js';
import { compileOwnSchema } from './lazy.js';
import { readJsonFile } from './load-json.js';
import type { CodeRegistry } from './registry/registry.js';
import type { Finding, Report, Summary } from './types.js';

let validateReport: ValidateFunction | undefined;

export function readJsonReport(path: string): JsonReport {
  const data = readJsonFile(path, 'report');
  validateReport ??= compileOwnSchema(readJsonAsset('schemas/report-v1.schema.json') as object);
  if (!validateReport(data)) {
    const first = validateReport.errors?.[0];
    throw new UsageError(`report ${path}${first?.instancePath ? ` at ${first.instancePath}` : ''}: ${first?.message ?? 'invalid'} (merge takes reports of check --format json)`);
  }
  return data as JsonReport;
}

function fromJsonFinding(finding: JsonFinding): Finding {
  const { source, line, column, pointer, rule, ...rest } = finding;
  return {
    ...rest,
    rule: rule as Finding['rule'],
    location: { source, line, ...(column !== undefined && { column }), ...(pointer !== undefined && { pointer }) },
  };
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, n] of Object.entries(from)) into[key] = (into[key] ?? 0) + n;
}

function sortedCounts(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0)));
}

function byKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const scalarKeys = ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings', 'protocolErrors', 'truncated'] as const;
const countKeys = ['invalidCategories', 'codes', 'unknownCodes', 'warningCodes', 'unknownWarningCodes'] as const;

export function mergeSummaries(summaries: readonly Summary[]): Summary {
  const merged: Summary = {
    inputs: 0, records: 0, valid: 0, invalid: 0, unparseable: 0, skipped: 0, errors: 0, warnings: 0, protocolErrors: 0, truncated: 0,
    outcomes: { ok: 0, failed: 0, unknown: 0 },
    categories: {}, invalidCategories: {}, codes: {}, unknownCodes: {}, warningCodes: {}, unknownWarningCodes: {},
  };
  const tools: NonNullable<Summary['tools']> = {};
  const sessions: NonNullable<Summary['sessions']> = {};
  for (const summary of summaries) {
    for (const key of scalarKeys) merged[key] += summary[key];
    for (const key of ['ok', 'failed', 'unknown'] as const) merged.outcomes[key] += summary.outcomes[key];
    // Category order is the schema's enum order, which the first report gives.
    addCounts(merged.categories, summary.categories);
    for (const key of countKeys) addCounts(merged[key], summary[key]);
    for (const [name, t] of Object.entries(summary.tools ?? {})) {
      const into = (tools[name] ??= { ok: 0, failed: 0 });
      into.ok += t.ok;
      into.failed += t.failed;
    }
    for (const [id, s] of Object.entries(summary.sessions ?? {})) {
      const into = (sessions[id] ??= { records: 0, ok: 0, failed: 0 });
      into.records += s.records;
      into.ok += s.ok;
      into.failed += s.failed;
    }
    if (summary.baseline) {
      const into = (merged.baseline ??= { suppressed: 0, stale: 0 });
      into.suppressed += summary.baseline.suppressed;
      into.stale += summary.baseline.stale;
    }
  }
  for (const key of countKeys) merged[key] = sortedCounts(merged[key]);
  if (Object.keys(tools).length > 0) merged.tools = byKey(tools);
  if (Object.keys(sessions).length > 0) merged.sessions = byKey(sessions);
  return merged;
}

export function mergeReports(reports: readonly { path: string; report: JsonReport }[], registry: CodeRegistry): Report {
  const first = reports[0];
  if (!first) throw new UsageError('merge: name at least one JSON report');
  for (const { path, report } of reports) {
    if (report.schema.id !== first.report.schema.id || report.schema.source !== first.report.schema.source) {
      throw new UsageError(`merge: ${path} was checked against another schema (${report.schema.source}) than ${first.path} (${first.report.schema.source})`);
    }
  }
  const summary = mergeSummaries(reports.map((r) => r.report.summary));
  const suggest = (codes: Record<string, number>, nearest: (code: string) => string | undefined) =>
    Object.fromEntries(Object.keys(codes).sort().flatMap((code) => {
      const suggestion = nearest(code);
      return suggestion === undefined ? [] : [[code, suggestion]];
    }));
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: packageVersion },
    schema: first.report.schema,
    summary,
    findings: reports.flatMap((r) => r.report.findings.map(fromJsonFinding)),
    suggestions: {
      codes: suggest(summary.unknownCodes, (c) => registry.nearestErrorCode(c)),
      warningCodes: suggest(summary.unknownWarningCodes, (c) => registry.nearestWarningCode(c)),
    },
    inputFailures: [],
    interrupted: false,
  };
}

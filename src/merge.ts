// `mcec-result merge`: JSON reports of shards (spec section 4, --shard) combined into one report,
// which any formatter can then render. Counts and distributions are summed; findings keep the
// order of the reports as given (each report's findings are already in its inputs' order).
import { packageVersion } from './assets.js';
import { UsageError } from './errors.js';
import type { JsonFinding, JsonReport } from './formatters/json.js';
import { readValidatedJsonFile } from './load-json.js';
import type { CodeRegistry } from './registry/registry.js';
import { mergeSummaries, suggestionsFor } from './tally.js';
import type { Finding, Report } from './types.js';

export function readJsonReport(path: string): JsonReport {
  return readValidatedJsonFile<JsonReport>(path, 'report', 'schemas/report-v1.schema.json', 'merge takes reports of check --format json');
}

function fromJsonFinding(finding: JsonFinding): Finding {
  const { source, line, column, pointer, rule, ...rest } = finding;
  return {
    ...rest,
    rule: rule as Finding['rule'],
    location: { source, line, ...(column !== undefined && { column }), ...(pointer !== undefined && { pointer }) },
  };
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
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: packageVersion() },
    schema: first.report.schema,
    summary,
    findings: reports.flatMap((r) => r.report.findings.map(fromJsonFinding)),
    suggestions: suggestionsFor(summary, registry),
    inputFailures: [],
    interrupted: false,
  };
}

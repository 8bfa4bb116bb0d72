// `--format json`: the versioned, public report of spec section 6. Findings are flattened back to
// the spec's shape (location fields at the top level); fields that do not apply are omitted.
import type { Finding, Report, Summary, Wrapping } from '../types.js';
import { mapped, streamJson, streamedArray } from './common.js';

export interface JsonFinding {
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  source: string;
  line: number;
  column?: number;
  pointer?: string;
  keyword?: string;
  schemaPath?: string;
  suggestion?: string;
  tool?: string;
  wrapping?: Wrapping;
}

export interface JsonReport {
  reportVersion: 1;
  tool: { name: string; version: string };
  schema: { id?: string; source: string };
  summary: Summary;
  findings: JsonFinding[];
}

export function toJsonFinding(finding: Finding): JsonFinding {
  const { rule, severity, message, location, keyword, schemaPath, suggestion, tool, wrapping } = finding;
  return {
    rule,
    severity,
    message,
    source: location.source,
    line: location.line,
    ...(location.column !== undefined && { column: location.column }),
    ...(location.pointer !== undefined && { pointer: location.pointer }),
    ...(keyword !== undefined && { keyword }),
    ...(schemaPath !== undefined && { schemaPath }),
    ...(suggestion !== undefined && { suggestion }),
    ...(tool !== undefined && { tool }),
    ...(wrapping !== undefined && { wrapping }),
  };
}

function jsonReport(report: Report, findings: JsonFinding[]): JsonReport {
  return { reportVersion: report.reportVersion, tool: report.tool, schema: report.schema, summary: report.summary, findings };
}

/** The whole JSON report as one value (it holds every finding: for large reports, `formatJson` streams). */
export function toJsonReport(report: Report): JsonReport {
  return jsonReport(report, Array.from(report.findings, toJsonFinding));
}

export function* formatJson(report: Report): Generator<string> {
  yield* streamJson(jsonReport(report, streamedArray()), mapped(report.findings, toJsonFinding));
}

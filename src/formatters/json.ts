// `--format json`: the versioned, public report of spec section 6. Findings are flattened back to
// the spec's shape (location fields at the top level); fields that do not apply are omitted.
import type { Finding, Report, Summary, Wrapping } from '../types.js';
import { writtenAlike } from '../findings/order.js';
import { jsonWithoutCommands, streamJson, streamedArray, type ItemWriter } from './common.js';

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
  schema: { id?: string; source: string; version?: string; sha256?: string };
  summary: Summary;
  findings: JsonFinding[];
}

/** Assigned field by field, in the report's order: object spreads cost more, on every finding. */
export function toJsonFinding(finding: Finding): JsonFinding {
  const { location } = finding;
  const json: JsonFinding = { rule: finding.rule, severity: finding.severity, message: finding.message, source: location.source, line: location.line };
  if (location.column !== undefined) json.column = location.column;
  if (location.pointer !== undefined) json.pointer = location.pointer;
  if (finding.keyword !== undefined) json.keyword = finding.keyword;
  if (finding.schemaPath !== undefined) json.schemaPath = finding.schemaPath;
  if (finding.suggestion !== undefined) json.suggestion = finding.suggestion;
  if (finding.tool !== undefined) json.tool = finding.tool;
  if (finding.wrapping !== undefined) json.wrapping = finding.wrapping;
  return json;
}

function jsonReport(report: Report, findings: JsonFinding[]): JsonReport {
  return { reportVersion: report.reportVersion, tool: report.tool, schema: report.schema, summary: report.summary, findings };
}

/** The whole JSON report as one value (it holds every finding: for large reports, `formatJson` streams). */
export function toJsonReport(report: Report): JsonReport {
  return jsonReport(report, Array.from(report.findings, toJsonFinding));
}

export function* formatJson(report: Report): Generator<string> {
  yield* jsonWithoutCommands(streamJson(jsonReport(report, streamedArray()), report.findings, findingWriter()));
}

/** Stands for a finding's line in the text kept for its kind: no line is negative, nor a fraction. */
const lineMark = -0.5;

/** Texts kept by one report's writer, at most: a few hundred kinds is usual. */
const maxKinds = 10_000;

interface KindText {
  finding: Finding;
  /** The finding's text up to its message, from there to its input's name, from there to its line number, and after that. */
  head: string;
  afterMessage: string;
  middle: string;
  tail: string;
}

/**
 * Findings repeat but for their messages, lines and inputs (the bench's corpora have a few kinds
 * for many findings, and the recovery rules' messages name other lines): a kind's text is made once
 * by JSON.stringify, with marks for the message, the input and the line, and every finding of the
 * kind is that text with its own put in, its message by JSON.stringify of the string alone (which
 * escapes it as it does inside an object), for a fraction of a JSON.stringify call of the finding.
 */
function findingWriter(): ItemWriter<Finding> {
  const byRule = new Map<string, KindText[]>();
  let kinds = 0;
  // Findings of one input come together: its name is quoted once.
  let source: string | undefined;
  let quoted = '';
  const write = (kind: KindText, finding: Finding): string => {
    if (finding.location.source !== source) (source = finding.location.source), (quoted = JSON.stringify(source));
    return `${kind.head}${JSON.stringify(finding.message)}${kind.afterMessage}${quoted}${kind.middle}${finding.location.line}${kind.tail}`;
  };
  return (finding, stringified) => {
    let known = byRule.get(finding.rule);
    if (known !== undefined) {
      for (let i = 0; i < known.length; i++) {
        const kind = known[i]!;
        if (writtenAlike(kind.finding, finding, true, false)) return write(kind, finding);
      }
    }
    const json = toJsonFinding(finding);
    if (kinds === maxKinds) return stringified(json);
    json.message = '';
    json.source = '';
    json.line = lineMark;
    const text = stringified(json);
    // The only `"message": `, `"source": ` and `"line": ` in the text not inside a string (whose
    // quotes are escaped there), in the order toJsonFinding gives the fields.
    const at = text.indexOf('"message": ""') + '"message": '.length;
    const from = text.indexOf('"source": ""', at) + '"source": '.length;
    const lineAt = text.indexOf(`"line": ${lineMark}`, from) + '"line": '.length;
    const kind: KindText = { finding, head: text.slice(0, at), afterMessage: text.slice(at + 2, from), middle: text.slice(from + 2, lineAt), tail: text.slice(lineAt + String(lineMark).length) };
    if (known === undefined) byRule.set(finding.rule, (known = []));
    known.push(kind);
    kinds++;
    return write(kind, finding);
  };
}

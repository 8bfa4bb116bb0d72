// `--format ndjson`: the JSON report as a stream, one compact JSON value per line, for tools that
// read line by line (jq -c, log shippers). Every finding in the flat shape of the JSON report
// (spec section 6) tagged "finding", then the summary tagged "summary". Lists all findings.
import type { Report } from '../types.js';
import { jsonWithoutCommands } from './common.js';
import { toJsonFinding } from './json.js';

function* pieces(report: Report): Generator<string> {
  for (const finding of report.findings) yield `${JSON.stringify({ type: 'finding', ...toJsonFinding(finding) })}\n`;
  yield `${JSON.stringify({ type: 'summary', ...report.summary })}\n`;
}

export function* formatNdjson(report: Report): Generator<string> {
  yield* jsonWithoutCommands(pieces(report));
}

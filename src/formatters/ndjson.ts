// `--format ndjson`: the JSON report as a stream, one compact JSON value per line, for tools that
// read line by line (jq -c, log shippers). Every finding in the flat shape of the JSON report
// (spec section 6) tagged "finding", then the summary tagged "summary". Lists all findings.
import type { Report } from '../types.js';
import { withoutCommands } from './common.js';
import type { StreamWriter } from './streamed.js';
import { toJsonFinding } from './json.js';

/** The ndjson format as a stream (spec section 8.10): a line per finding, then the summary's. Lists all. */
export function ndjsonWriter(): StreamWriter {
  const safe = (text: string) => withoutCommands(text, '\\u005b');
  return {
    maxListed: 0,
    shows: () => true,
    listed: (_source, findings) => findings.map((finding) => safe(`${JSON.stringify({ type: 'finding', ...toJsonFinding(finding) })}\n`)).join(''),
    inputEnd: () => '',
    note: () => '',
    hint: () => '',
    summary: (report) => safe(`${JSON.stringify({ type: 'summary', ...report.summary })}\n`),
  };
}

export function* formatNdjson(report: Report): Generator<string> {
  const writer = ndjsonWriter();
  for (const finding of report.findings) yield writer.listed(finding.location.source, [finding]);
  yield writer.summary(report);
}

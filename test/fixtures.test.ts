// Table-driven fixture tests: the BUILT binary (`npm test` builds first) is run on every file under
// fixtures/ and its JSON report (spec section 6) is compared with expectations worked out by hand
// from the spec (sections 1, 2, 5, 6 and 7), not copied from the tool's output.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ruleCatalog } from '../src/checks/catalog.js';
import type { JsonFinding, JsonReport } from '../src/formatters/json.js';
import type { Summary } from '../src/types.js';

type Report = Pick<JsonReport, 'summary' | 'findings'>;

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'mcec-result.js');

// The report's own public types: the fixtures are checked against the shapes the package ships.
type Finding = JsonFinding;



const runs = new Map<string, { status: number | null; report: Report }>();

/** Runs `mcec-result check <inputs> --format json` from the repo root (once per argument list). */
function runCheck(...inputs: string[]): { status: number | null; report: Report } {
  const key = JSON.stringify(inputs);
  const cached = runs.get(key);
  if (cached) return structuredClone(cached);
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete env['FORCE_COLOR'];
  const run = spawnSync(process.execPath, [bin, 'check', ...inputs, '--format', 'json'], { cwd: root, env, encoding: 'utf8' });
  if (run.status === 2 || run.stdout === '') throw new Error(`mcec-result failed (exit ${run.status}): ${run.stderr}`);
  const result = { status: run.status, report: JSON.parse(run.stdout) as Report };
  runs.set(key, result);
  return structuredClone(result);
}

function filesIn(folder: string): string[] {
  return readdirSync(join(root, 'fixtures', folder)).filter((name) => !name.startsWith('.')).sort();
}

/** The text of a fixture: gunzipped, BOM stripped, UTF-16 decoded (spec sections 3 and 7). */
function fixtureText(path: string): string {
  let bytes = readFileSync(join(root, path));
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
  return bytes.toString('utf8');
}

/**
 * How many entries (records + unparseable + skipped) an input holds (spec section 6, Counting):
 * a `.json` file's array elements, or 1 for any other document (a broken one is one unparseable
 * entry); a line-delimited file's non-blank lines (blank = only spaces, tabs and CRs).
 */
function entryCount(path: string): number {
  const text = fixtureText(path);
  if (/\.json(\.gz)?$/.test(path)) {
    if (text.trim() === '') return 0;
    try {
      const value: unknown = JSON.parse(text);
      return Array.isArray(value) ? value.length : 1;
    } catch {
      return 1;
    }
  }
  return text.split('\n').filter((line) => !/^[ \t\r]*$/.test(line)).length;
}

// Default severities of spec section 5, for the rules fixtures/invalid exercises (the transcript
// rules have fixtures of their own, test/transcripts.test.ts).
const severityOf = {
  'parse-error': 'error',
  schema: 'error',
  'result-on-failure': 'error',
  'missing-result': 'warning',
  'unknown-code': 'warning',
  'unknown-warning-code': 'warning',
  'code-category-mismatch': 'warning',
  'code-format': 'warning',
  'inline-image': 'warning',
  'empty-input': 'warning',
} as const;
type RuleId = keyof typeof severityOf;
const implementedRules = Object.keys(severityOf) as RuleId[];

/**
 * One expected finding:
 * - `['schema', line, pointer, keyword]`
 * - `['parse-error', line, column]`
 * - `[rule, line, pointer]` for every other rule (`null` when the finding has no pointer).
 */
type Expected =
  | readonly ['schema', number, string, string]
  | readonly ['parse-error', number, number]
  | readonly [Exclude<RuleId, 'schema' | 'parse-error'>, number, string | null];

function tupleOf(finding: Finding): readonly unknown[] {
  if (finding.rule === 'schema') return [finding.rule, finding.line, finding.pointer ?? null, finding.keyword ?? null];
  if (finding.rule === 'parse-error') return [finding.rule, finding.line, finding.column ?? null];
  return [finding.rule, finding.line, finding.pointer ?? null];
}

function sortTuples<T extends readonly unknown[]>(tuples: readonly T[]): T[] {
  const key = (t: T) => `${String(t[1]).padStart(8, '0')} ${JSON.stringify(t)}`;
  return [...tuples].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

const aP = 'additionalProperties';

// fixtures/invalid: one concern per file; every finding it must give, and the exit status.
const invalid: Record<string, { exit: 0 | 1; findings: Expected[] }> = {
  'schema-ok-false-without-error.jsonl': {
    exit: 1,
    findings: [['schema', 2, '', 'required'], ['schema', 4, '', 'required']],
  },
  'schema-ok-true-with-error.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/error', 'not'], ['schema', 4, '/error', 'not']],
  },
  'schema-error-null-on-success.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/error', 'type'], ['schema', 4, '/error', 'type']],
  },
  'schema-type-error.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/error', 'type'], ['schema', 3, '/error', 'type'], ['schema', 5, '/error', 'type']],
  },
  'schema-missing-ok.jsonl': {
    exit: 1,
    findings: [['schema', 2, '', 'required'], ['schema', 3, '', 'required']],
  },
  'schema-additional-property.jsonl': {
    exit: 1,
    findings: [
      ['schema', 2, '/durationMs', aP],
      ['schema', 3, '/tool', aP],
      ['schema', 3, '/ts', aP],
      // `results` for `result`: the extra member, and so no result on a success.
      ['schema', 5, '/results', aP],
      ['missing-result', 5, ''],
    ],
  },
  'schema-error-additional-property.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/error/hint', aP], ['schema', 3, '/error/retryable', aP], ['schema', 3, '/error/stack', aP]],
  },
  'schema-error-required.jsonl': {
    exit: 1,
    findings: [
      ['schema', 2, '/error', 'required'],
      // `message` instead of `detail`.
      ['schema', 3, '/error', 'required'],
      ['schema', 3, '/error/message', aP],
      // `{}`: code, category and detail missing, one finding per (pointer, keyword).
      ['schema', 4, '/error', 'required'],
    ],
  },
  'schema-warning-missing-detail.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/warnings/0', 'required'], ['schema', 3, '/warnings/1', 'required']],
  },
  'schema-warning-missing-code.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/warnings/0', 'required']],
  },
  'schema-warning-additional-property.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/warnings/0/severity', aP], ['schema', 3, '/warnings/1/hint', aP]],
  },
  'schema-type-warnings.jsonl': {
    exit: 1,
    findings: [
      ['schema', 2, '/warnings', 'type'],
      ['schema', 3, '/warnings', 'type'],
      ['schema', 4, '/warnings/0', 'type'],
      ['schema', 5, '/warnings', 'type'],
    ],
  },
  'schema-type-warning-members.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/warnings/0/code', 'type'], ['schema', 3, '/warnings/0/detail', 'type']],
  },
  'schema-category-enum.jsonl': {
    exit: 1,
    findings: [
      // Lines 2 and 5 (ocr-blank, ocr-no-text) are categories of the default schema version,
      // 2026-07 (spec section 8.3); under 2026-06 they are schema findings (the test below).
      // `Timeout`: not in the enum, and not a category the code is listed under.
      ['schema', 3, '/error/category', 'enum'],
      ['code-category-mismatch', 3, '/error/category'],
    ],
  },
  'schema-type-ok.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/ok', 'type'], ['schema', 3, '/ok', 'type'], ['schema', 4, '/ok', 'type'], ['schema', 5, '/ok', 'type']],
  },
  'schema-type-result.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/result', 'type'], ['schema', 3, '/result', 'type'], ['schema', 4, '/result', 'type']],
  },
  'schema-type-session-id.jsonl': {
    exit: 1,
    findings: [['schema', 2, '/sessionId', 'type'], ['schema', 3, '/sessionId', 'type']],
  },
  'schema-type-error-members.jsonl': {
    exit: 1,
    findings: [
      ['schema', 2, '/error/code', 'type'],
      ['schema', 3, '/error/detail', 'type'],
      ['schema', 4, '/error/lastObservation', 'type'],
      ['schema', 5, '/error/partialResult', 'type'],
      ['schema', 6, '/error/category', 'enum'],
      ['schema', 6, '/error/category', 'type'],
    ],
  },
  'schema-not-an-object.jsonl': {
    exit: 1,
    findings: [['schema', 2, '', 'type'], ['schema', 3, '', 'type'], ['schema', 4, '', 'type'], ['schema', 5, '', 'type']],
  },
  'schema-array-element.json': {
    exit: 1,
    // Elements at lines 2, 3, 4, 13 and 16; an array element is not flattened further.
    findings: [['schema', 3, '', 'type'], ['schema', 13, '', 'type'], ['schema', 16, '', 'type']],
  },
  'schema-proto-key.jsonl': {
    exit: 1,
    findings: [
      ['schema', 2, '/__proto__', aP],
      // `{"__proto__":{"ok":true}}` is an own member named __proto__, not an inherited ok.
      ['schema', 3, '', 'required'],
      ['schema', 3, '/__proto__', aP],
      ['schema', 4, '/error/constructor', aP],
      ['schema', 6, '/hasOwnProperty', aP],
    ],
  },
  'result-on-failure.jsonl': {
    exit: 1,
    findings: [['result-on-failure', 2, '/result'], ['result-on-failure', 3, '/result']],
  },
  'missing-result.jsonl': {
    exit: 0,
    findings: [['missing-result', 2, ''], ['missing-result', 3, '']],
  },
  'unknown-code.jsonl': {
    exit: 0,
    findings: [
      ['unknown-code', 2, '/error/code'],
      ['unknown-code', 3, '/error/code'],
      ['unknown-code', 5, '/error/code'],
      ['unknown-code', 6, '/error/code'],
    ],
  },
  'unknown-warning-code.jsonl': {
    exit: 0,
    findings: [
      ['unknown-warning-code', 2, '/warnings/0/code'],
      ['unknown-warning-code', 3, '/warnings/1/code'],
      // An error code (consent-pending) used as a warning code.
      ['unknown-warning-code', 5, '/warnings/0/code'],
    ],
  },
  'code-category-mismatch.jsonl': {
    exit: 0,
    findings: [
      ['code-category-mismatch', 2, '/error/category'],
      ['code-category-mismatch', 3, '/error/category'],
      ['code-category-mismatch', 5, '/error/category'],
    ],
  },
  'code-format.jsonl': {
    exit: 0,
    // A code that is not kebab-case is also outside the registry (spec section 6).
    findings: [
      ['code-format', 2, '/error/code'],
      ['unknown-code', 2, '/error/code'],
      ['code-format', 3, '/warnings/0/code'],
      ['unknown-warning-code', 3, '/warnings/0/code'],
      ['code-format', 4, '/error/code'],
      ['unknown-code', 4, '/error/code'],
    ],
  },
  'inline-image.jsonl': {
    exit: 0,
    findings: [
      ['inline-image', 2, '/error/lastObservation/screenshot/base64'],
      ['inline-image', 3, '/error/lastObservation/thumbnail'],
      // exactly 200 base64 characters; line 5 has 199 (and base64 in partialResult), line 6 in a result.
      ['inline-image', 4, '/error/lastObservation/frames/0/png'],
      ['inline-image', 7, '/error/lastObservation/icon'],
    ],
  },
  'parse-error.jsonl': {
    exit: 1,
    findings: [
      ['parse-error', 2, 57], // cut off inside a string: found where the 56-character line runs out
      ['parse-error', 4, 83], // two envelopes on one line: the second starts at column 83
      ['parse-error', 6, 2], // lines 6-10: a pretty-printed object, one entry per non-blank line
      ['parse-error', 7, 7],
      ['parse-error', 8, 10],
      ['parse-error', 9, 14],
      ['parse-error', 10, 1],
      ['parse-error', 12, 2], // a Python repr: single quotes
      ['parse-error', 13, 33], // NaN
    ],
  },
  'parse-error.json': {
    exit: 1,
    // Missing comma between elements: the whole document is one unparseable entry.
    findings: [['parse-error', 4, 3]],
  },
  'invalid-utf8.jsonl': {
    exit: 1,
    findings: [
      ['parse-error', 2, 98], // 0xff after 97 ASCII characters
      ['parse-error', 4, 44], // Latin-1 0xe9 after an emoji (2 UTF-16 units) and an em dash (1 unit)
    ],
  },
  'empty-input.jsonl': { exit: 0, findings: [['empty-input', 1, null]] },
  'empty-input.json': { exit: 0, findings: [['empty-input', 1, null]] },
  'empty-input-blank-lines.ndjson': { exit: 0, findings: [['empty-input', 1, null]] },
  'empty-input-bom.jsonl': { exit: 0, findings: [['empty-input', 1, null]] },
};

// Where each keyword of the bundled schema is exercised: a schema finding at that file and line
// with that schemaPath.
const schemaKeywordCoverage: Record<string, [file: string, line: number, schemaPath: string]> = {
  type: ['schema-not-an-object.jsonl', 2, '#/type'],
  required: ['schema-missing-ok.jsonl', 2, '#/required'],
  additionalProperties: ['schema-additional-property.jsonl', 2, '#/additionalProperties'],
  properties: ['schema-type-ok.jsonl', 2, '#/properties/ok/type'],
  'items + $ref (warning)': ['schema-type-warnings.jsonl', 4, '#/$defs/warning/type'],
  '$ref (error)': ['schema-error-required.jsonl', 2, '#/$defs/error/required'],
  enum: ['schema-category-enum.jsonl', 3, '#/$defs/error/properties/category/enum'],
  'allOf + if/then': ['schema-ok-false-without-error.jsonl', 2, '#/allOf/0/then/required'],
  'not + anyOf': ['schema-ok-true-with-error.jsonl', 2, '#/allOf/1/then/not'],
};

describe('fixtures/valid', () => {
  for (const file of filesIn('valid')) {
    it(`${file}: exit 0, no findings, every entry checked as a record`, () => {
      const path = `fixtures/valid/${file}`;
      const { status, report } = runCheck(path);
      expect(report.findings).toEqual([]);
      expect(status).toBe(0);
      const { records, valid, unparseable, skipped, errors, warnings } = report.summary;
      expect(records + unparseable + skipped).toBe(entryCount(path));
      expect({ records, valid, unparseable, skipped, errors, warnings }).toEqual({ records: entryCount(path), valid: records, unparseable: 0, skipped: 0, errors: 0, warnings: 0 });
    });
  }

  it('covers every category of the bundled schema', () => {
    const schema = JSON.parse(readFileSync(join(root, 'data/agent-tool-result.schema.json'), 'utf8'));
    // The reports of the folder's files, each the run the test of that file reads (runCheck runs an
    // argument list once), their category counts summed.
    const counts: Record<string, number> = {};
    for (const file of filesIn('valid')) {
      for (const [category, n] of Object.entries(runCheck(`fixtures/valid/${file}`).report.summary.categories)) counts[category] = (counts[category] ?? 0) + n;
    }
    for (const category of schema.$defs.error.properties.category.enum as string[]) {
      expect(counts[category], category).toBeGreaterThan(0);
    }
  });
});

describe('fixtures/invalid', () => {
  it('has an expectation for every file, and a file for every expectation', () => {
    expect(Object.keys(invalid).sort()).toEqual(filesIn('invalid'));
  });

  it('exercises every implemented rule', () => {
    const rules = new Set(Object.values(invalid).flatMap((entry) => entry.findings.map((f) => f[0])));
    expect([...rules].sort()).toEqual([...implementedRules].sort());
  });

  it('gives exit 1 exactly where an expected finding has error severity', () => {
    // The severities are the spec's, and the product's catalog says the same.
    for (const rule of implementedRules) expect(ruleCatalog[rule].defaultSeverity, rule).toBe(severityOf[rule]);
    for (const [file, entry] of Object.entries(invalid)) {
      const hasError = entry.findings.some(([rule]) => severityOf[rule] === 'error');
      expect(entry.exit, file).toBe(hasError ? 1 : 0);
    }
  });

  for (const [file, expected] of Object.entries(invalid)) {
    it(`${file}`, () => {
      const path = `fixtures/invalid/${file}`;
      const { status, report } = runCheck(path);
      expect(sortTuples(report.findings.map(tupleOf))).toEqual(sortTuples(expected.findings));
      expect(status).toBe(expected.exit);

      // Spec section 6: order by line, column (none = 0), rule id.
      const order = (f: Finding) => [f.line, f.column ?? 0, f.rule] as const;
      for (let i = 1; i < report.findings.length; i++) {
        const [a, b] = [order(report.findings[i - 1]!), order(report.findings[i]!)];
        expect(a[0] < b[0] || (a[0] === b[0] && (a[1] < b[1] || (a[1] === b[1] && a[2] <= b[2]))), `${file}: findings out of order`).toBe(true);
      }
      for (const finding of report.findings) {
        expect(finding.severity, `${finding.rule} at line ${finding.line}`).toBe(severityOf[finding.rule as RuleId]);
        expect(finding.source).toBe(path);
        const recordRule = finding.rule !== 'parse-error' && finding.rule !== 'empty-input';
        expect(finding.wrapping).toBe(recordRule ? 'bare' : undefined);
        if (finding.rule === 'schema') expect(finding.schemaPath).toMatch(/^#\//);
      }

      const { summary } = report;
      expect(summary.records + summary.unparseable + summary.skipped).toBe(entryCount(path));
      expect(summary.valid + summary.invalid).toBe(summary.records);
      expect(summary.errors).toBe(report.findings.filter((f) => f.severity === 'error').length);
      expect(summary.warnings).toBe(report.findings.filter((f) => f.severity === 'warning').length);
    });
  }

  describe('cover every keyword the bundled schema uses', () => {
    for (const [keyword, [file, line, schemaPath]] of Object.entries(schemaKeywordCoverage)) {
      it(`${keyword}: ${file} line ${line}`, () => {
        expect(invalid[file], `${file} has no expectation`).toBeDefined();
        const { report } = runCheck(`fixtures/invalid/${file}`);
        const paths = report.findings.filter((f) => f.rule === 'schema' && f.line === line).map((f) => f.schemaPath);
        expect(paths).toContain(schemaPath);
      });
    }
  });
});

describe('details the spec fixes', () => {
  const at = (report: Report, line: number, rule: string) => report.findings.filter((f) => f.line === line && f.rule === rule);

  it('names the ok/error invariants in the message', () => {
    const missing = runCheck('fixtures/invalid/schema-ok-false-without-error.jsonl').report;
    expect(at(missing, 2, 'schema')[0]!.message).toBe('ok is false, so error is required');
    const forbidden = runCheck('fixtures/invalid/schema-ok-true-with-error.jsonl').report;
    expect(at(forbidden, 2, 'schema')[0]!.message).toMatch(/^ok is true, so /);
  });

  it('says that the prose allows "error": null on success', () => {
    const { report } = runCheck('fixtures/invalid/schema-error-null-on-success.jsonl');
    expect(at(report, 2, 'schema')[0]!.message).toMatch(/prose|description|allow/i);
  });

  it('suggests the nearest category and codes (within two edits, ignoring case and _/-)', () => {
    const suggestions = (file: string) =>
      runCheck(`fixtures/invalid/${file}`).report.findings.map((f) => [f.line, f.rule, f.suggestion ?? null]);
    expect(suggestions('schema-category-enum.jsonl')).toContainEqual([3, 'schema', 'timeout']);
    // A category of another schema version gets no suggestion: its message names that version.
    const older = runCheck('fixtures/invalid/schema-category-enum.jsonl', '--schema-version', '2026-06').report.findings.filter((f) => f.rule === 'schema');
    expect(older.map((f) => [f.line, f.suggestion ?? null, /schema version 2026-07/.test(f.message)])).toEqual([[2, null, true], [3, 'timeout', false], [5, null, true]]);
    expect(suggestions('unknown-code.jsonl')).toEqual([
      [2, 'unknown-code', 'window-not-found'],
      [3, 'unknown-code', null],
      [5, 'unknown-code', null],
      [6, 'unknown-code', 'element-not-found'],
    ]);
    expect(suggestions('unknown-warning-code.jsonl')).toEqual([
      [2, 'unknown-warning-code', 'minimized-window'],
      [3, 'unknown-warning-code', 'region-clamped'],
      [5, 'unknown-warning-code', null],
    ]);
    const codeFormat = suggestions('code-format.jsonl').filter(([, rule]) => rule !== 'code-format');
    expect(codeFormat).toEqual([
      [2, 'unknown-code', 'window-not-found'],
      [3, 'unknown-warning-code', 'tree-truncated'],
      [4, 'unknown-code', 'element-not-found'],
    ]);
  });

  it('suggests --input json on the first line of a pretty-printed object only', () => {
    const { report } = runCheck('fixtures/invalid/parse-error.jsonl');
    const hinted = report.findings.filter((f) => f.message.includes('--input json')).map((f) => f.line);
    expect(hinted).toEqual([6]);
  });

  it('counts a broken .json document as one unparseable entry', () => {
    const { summary } = runCheck('fixtures/invalid/parse-error.json').report;
    expect([summary.records, summary.unparseable]).toEqual([0, 1]);
  });
});

// fixtures/samples: counted by hand from the files.
const noCategories = {
  timeout: 0, 'ambiguous-selector': 0, 'stale-element': 0, 'no-target': 0, 'invalid-argument': 0,
  'capture-blank': 0, 'ocr-blank': 0, 'ocr-no-text': 0, focus: 0, elevation: 0, foreground: 0, internal: 0,
};

const samples: Record<string, { exit: 0 | 1; summary: Partial<Summary>; findings: readonly unknown[][] }> = {
  'agent-run-2026-07-01.jsonl': {
    exit: 1,
    summary: {
      records: 48, valid: 46, invalid: 2, unparseable: 0, skipped: 0, errors: 2, warnings: 1,
      outcomes: { ok: 34, failed: 14, unknown: 0 },
      categories: {
        ...noCategories, timeout: 1, 'ambiguous-selector': 1, 'stale-element': 1, 'no-target': 4, 'invalid-argument': 2,
        'capture-blank': 1, focus: 1, elevation: 1, foreground: 1, internal: 1,
      },
      invalidCategories: {},
      unknownCodes: { 'element-not-fuond': 1 },
      warningCodes: { 'capture-fallback': 1, 'tree-truncated': 1, 'region-clamped': 1, 'unfetched-recording-discarded': 1, 'ocr-fallback': 1 },
      unknownWarningCodes: {},
      sessions: { '5f19c9c01a3f': { records: 36, ok: 24, failed: 12, unknown: 0 }, a83e02d4b7c1: { records: 12, ok: 10, failed: 2, unknown: 0 } },
    },
    findings: [
      ['result-on-failure', 34, '/result'],
      ['unknown-code', 43, '/error/code'],
      ['schema', 47, '/elapsedMs', aP],
    ],
  },
  'legacy-server.ndjson': {
    exit: 1,
    summary: {
      records: 9, valid: 6, invalid: 3, unparseable: 1, skipped: 0, errors: 4, warnings: 2,
      outcomes: { ok: 3, failed: 6, unknown: 0 },
      categories: { ...noCategories, 'no-target': 2, internal: 1, 'capture-blank': 1 },
      invalidCategories: { no_target: 1 },
      codes: { 'element-not-found': 2, 'window-not-fonud': 1, 'internal-error': 1, 'frame-uniform': 1 },
      unknownCodes: { 'window-not-fonud': 1 },
      sessions: { '1b2c3d4e5f60': { records: 9, ok: 3, failed: 6, unknown: 0 } },
    },
    findings: [
      ['unknown-code', 2, '/error/code'],
      ['schema', 3, '', 'required'],
      ['result-on-failure', 4, '/result'],
      ['schema', 5, '/error/category', 'enum'],
      ['code-category-mismatch', 5, '/error/category'],
      ['parse-error', 8, 185], // cut off inside a string, at the end of the 184-character line
    ],
  },
  'nightly-smoke.json': {
    exit: 1,
    summary: {
      records: 10, valid: 9, invalid: 1, unparseable: 0, skipped: 0, errors: 1, warnings: 1,
      outcomes: { ok: 8, failed: 2, unknown: 0 },
      categories: { ...noCategories, timeout: 1, 'ambiguous-selector': 1 },
      invalidCategories: {},
      codes: { 'wait-condition-timeout': 1, 'selector-matched-3': 1 },
      unknownCodes: {},
      sessions: { '0c7d5e91f2ab': { records: 10, ok: 8, failed: 2, unknown: 0 } },
    },
    // Pretty-printed: each finding at the line of the member it points at (spec section 8.11), the
    // base64 member of the record at line 55 and the `error: null` of the one at line 71.
    findings: [
      ['inline-image', 65, '/error/lastObservation/screenshot/base64'],
      ['schema', 78, '/error', 'type'],
    ],
  },
};

describe('fixtures/samples', () => {
  it('has an expectation for every file', () => {
    expect(Object.keys(samples).sort()).toEqual(filesIn('samples'));
  });

  for (const [file, expected] of Object.entries(samples)) {
    it(`${file}`, () => {
      const { status, report } = runCheck(`fixtures/samples/${file}`);
      expect(status).toBe(expected.exit);
      for (const [key, value] of Object.entries(expected.summary)) {
        expect(report.summary[key as keyof Summary], `summary.${key}`).toEqual(value);
      }
      expect(sortTuples(report.findings.map(tupleOf))).toEqual(sortTuples(expected.findings));
    });
  }

  it('the folder (what `npm start` checks) fails, with the three files summed', () => {
    const { status, report } = runCheck('fixtures/samples');
    expect(status).toBe(1);
    expect(report.summary).toMatchObject({ inputs: 3, records: 67, valid: 61, invalid: 6, unparseable: 1, errors: 7, warnings: 4 });
    expect(report.findings.map((f) => f.source)).toEqual([
      ...Array(3).fill('fixtures/samples/agent-run-2026-07-01.jsonl'),
      ...Array(6).fill('fixtures/samples/legacy-server.ndjson'),
      ...Array(2).fill('fixtures/samples/nightly-smoke.json'),
    ]);
  });
});

// Spec sections 8.11 and 8.12, on real files: findings of a pretty-printed `.json` document at the
// member they point at (in the JSON report, SARIF and human output), and three messages. The
// fixtures are in fixtures/field/pretty-json/ (its README names where each shape comes from); the
// expected places are counted by hand from the files' text.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { childPointer } from '../src/checks/envelope.js';
import { frameDocument } from '../src/framing/document.js';
import { LineIndex } from '../src/framing/line-index.js';
import type { Framed } from '../src/types.js';
import { repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const folder = 'fixtures/field/pretty-json';

interface JsonFinding {
  rule: string;
  line: number;
  column?: number;
  pointer?: string;
  keyword?: string;
  message: string;
}

/** `rule line:column pointer` of a finding. */
const place = (f: JsonFinding) => `${f.rule} ${f.line}${f.column === undefined ? '' : `:${f.column}`} ${f.pointer ?? '-'}`;

/** `rule line:column pointer` of each finding, in report order. */
function places(args: string[], cwd = repoRoot): string[] {
  const { report } = runJson(args, { cwd });
  return report.findings.map(place);
}

/** The places of each input's findings, from one run over them all (findings name their source). */
function placesBySource(inputs: string[], cwd = repoRoot): string[][] {
  const findings = runJson(inputs, { cwd }).report.findings as (JsonFinding & { source: string })[];
  expect(findings.filter((f) => !inputs.includes(f.source))).toEqual([]);
  return inputs.map((input) => findings.filter((f) => f.source === input).map(place));
}

describe('8.11: findings in a pretty-printed .json sit at the value they point at', () => {
  it('JSON.stringify(x, null, 2) of an array: the member at fault, and a required finding at its record\'s {', () => {
    expect(places([`${folder}/stringify-array.json`])).toEqual([
      // Was line 6 (where the record starts) for both: "category" is on line 10, its value at column 19.
      'code-category-mismatch 10:19 /error/category',
      'schema 10:19 /error/category',
      // ok false without error: a missing member, at its parent object's `{` (line 15, column 3).
      'schema 15:3 ',
    ]);
  });

  it('PowerShell 7 ConvertTo-Json (CRLF): a member, and a required one inside warnings[0]', () => {
    expect(places([`${folder}/ps7-array.json`])).toEqual(['result-on-failure 19:15 /result', 'schema 30:7 /warnings/0']);
  });

  it('Windows PowerShell 5.1 ConvertTo-Json, written as UTF-16 with its BOM: its aligned members at their own columns', () => {
    expect(places([`${folder}/ps51-envelope.json`])).toEqual(['code-category-mismatch 5:32 /error/category', 'schema 5:32 /error/category', 'schema 13:19 /elapsedMs']);
  });

  it('an envelope in structuredContent of a saved JSON-RPC response: located inside it; required at its {', () => {
    expect(placesBySource([`${folder}/structured-content.json`, `${folder}/structured-content-required.json`])).toEqual([['unknown-code 14:17 /error/code'], ['schema 11:26 ']]);
  });

  it('SARIF gives the same region, and human output line:column', () => {
    // One run writes both reports.
    const humanFile = join(tempFiles({}), 'report.txt');
    const sarif = JSON.parse(runCli(['check', '--format', 'sarif', '--format', `human=${humanFile}`, `${folder}/stringify-array.json`]).stdout);
    const regions = sarif.runs[0].results.map((r: { ruleId: string; locations: { physicalLocation: { region: unknown } }[] }) => [r.ruleId, r.locations[0]!.physicalLocation.region]);
    expect(regions).toEqual([
      ['code-category-mismatch', { startLine: 10, startColumn: 19 }],
      ['schema', { startLine: 10, startColumn: 19 }],
      ['schema', { startLine: 15, startColumn: 3 }],
    ]);
    const human = readFileSync(humanFile, 'utf8');
    expect(human).toMatch(/stringify-array\.json:10:19 +error +error\.category must be one of/);
    expect(human).toMatch(/stringify-array\.json:15:3 +error +ok is false, so error is required/);
  });

  it('columns count UTF-16 units past non-ASCII names, and a pointer\'s escaped ~ and / find their member', () => {
    const record = { ok: true, result: {}, 'é😀/~': 1 };
    const dir = tempFiles({ 'odd.json': JSON.stringify(record, null, 2) });
    // `  "é😀/~": 1`: 2 spaces, then 9 UTF-16 units of name, colon and space before the 1.
    expect(places(['odd.json'], dir)).toEqual(['schema 4:12 /é😀~1~0']);
  });

  it('under --redact, a pointer whose names are withheld sits at the withheld member, the nearest value it names', () => {
    // /error/lastObservation/screenshot/base64 (line 65) is /error/lastObservation/*/* under --redact.
    expect(places(['--redact', 'fixtures/samples/nightly-smoke.json'])).toEqual(['inline-image 61:26 /error/lastObservation/*/*', 'schema 78:14 /error']);
  });

  it('keeps the record\'s line where the document holds no place for the pointer', () => {
    const failed = { ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: 'x' } };
    const dir = tempFiles({
      // On one line: nothing new.
      'one-line.json': JSON.stringify([{ ok: true, result: {} }, failed]),
      // The envelope is the text of a text block, no part of the document's text.
      'text-block.json': JSON.stringify({ content: [{ type: 'text', text: JSON.stringify(failed) }], isError: true }, null, 2),
    });
    expect(placesBySource(['one-line.json', 'text-block.json'], dir)).toEqual([['unknown-code 1 /error/code'], ['unknown-code 1 /error/code']]);
  });

  it('a baseline matches by pointer: written from a document, it holds against the same records laid out anew', () => {
    const records = JSON.parse(readFileSync(join(repoRoot, folder, 'stringify-array.json'), 'utf8'));
    const dir = tempFiles({ 'run.json': JSON.stringify(records, null, 2) });
    expect(runCli(['check', '--write-baseline', 'baseline.json', 'run.json'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, 'run.json'), `\n\n${JSON.stringify(records, null, 4)}`);
    expect(places(['run.json'], dir)[0]).toBe('code-category-mismatch 12:25 /error/category');
    const { status, report } = runJson(['--baseline', 'baseline.json', 'run.json'], { cwd: dir });
    expect(report.findings).toEqual([]);
    expect(report.summary.baseline).toEqual({ suppressed: 3, stale: 0 });
    expect(status).toBe(0);
  });
});

/** Every pointer into `value` and its path, root first. */
function pointersOf(value: unknown): [string, (string | number)[]][] {
  const out: [string, (string | number)[]][] = [];
  const stack: [unknown, string, (string | number)[]][] = [[value, '', []]];
  while (stack.length > 0) {
    const [node, pointer, path] = stack.pop()!;
    out.push([pointer, path]);
    if (node !== null && typeof node === 'object') for (const [key, member] of Object.entries(node)) stack.push([member, childPointer(pointer, Array.isArray(node) ? Number(key) : key), [...path, Array.isArray(node) ? Number(key) : key]]);
  }
  return out;
}

describe('8.11: framing\'s value places', () => {
  it('agree with jsonc-parser\'s tree on every value of any pretty-printed document, any indent, LF or CRLF', () => {
    const json = fc.jsonValue({ maxDepth: 3, stringUnit: 'binary' });
    const document = fc.oneof(fc.array(json, { maxLength: 5 }), fc.dictionary(fc.string({ unit: 'binary' }), json));
    fc.assert(
      fc.property(document, fc.constantFrom(1, 2, 4, '\t'), fc.boolean(), (value, indent, crlf) => {
        const text = `\n${JSON.stringify(value, null, indent)}\n`.replaceAll('\n', crlf ? '\r\n' : '\n');
        const framed: Framed[] = [];
        frameDocument(Buffer.from(text), {}, framed);
        const tree = parseTree(text)!;
        const lines = new LineIndex(text);
        const records: [unknown, (string | number)[]][] = Array.isArray(value) ? value.map((element, k) => [element, [k]]) : [[value, []]];
        expect(framed).toHaveLength(records.length);
        records.forEach(([record, at], k) => {
          const entry = framed[k]!;
          if (entry.kind !== 'value') throw new Error('not a value');
          const all = pointersOf(record);
          // A document on one line has none (nothing new); a record on one line in a pretty array has them.
          if (!JSON.stringify(value, null, indent).includes('\n')) return expect(entry.starts).toBeUndefined();
          expect(entry.starts).toBeDefined();
          const found = entry.starts!.find(all.map(([pointer]) => pointer));
          for (const [pointer, path] of all) {
            const node = findNodeAtLocation(tree, [...at, ...path])!;
            expect(found.get(pointer), pointer).toEqual(lines.position(node.offset));
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('8.12: messages', () => {
  const messages = (args: string[], cwd: string) => runJson(args, { cwd }).report.findings.map((f: JsonFinding) => `${f.line}:${f.column ?? '-'} ${f.message}`);

  it('JSON written with single quotes is told it takes double quotes', () => {
    const dir = tempFiles({ 'quoted.jsonl': "{'ok': true}\n{\"ok\": 'yes'}\n", 'quoted.json': "{\n  'ok': true\n}\n" });
    // Was: unexpected "'ok'".
    expect(messages(['quoted.jsonl', 'quoted.json'], dir)).toEqual([
      `1:2 JSON strings and member names take double quotes, found "'ok'"`,
      `2:8 JSON strings and member names take double quotes, found "'yes'"`,
      `2:3 JSON strings and member names take double quotes, found "'ok'"`,
    ]);
    // --redact quotes no text of the record.
    expect(messages(['--redact', 'quoted.jsonl'], dir)[0]).toBe('1:2 JSON strings and member names take double quotes');
  });

  it('a text block that is not JSON names its parse error and where in its text', () => {
    const block = (text: string) => JSON.stringify({ content: [{ type: 'text', text }], isError: false });
    const dir = tempFiles({ 'mcp.jsonl': `${block('{"ok": tru}')}\n${block('{\n  "ok": true,\n  "result": {x}\n}')}\n` });
    // Was: "its text block is not JSON", with no reason or place.
    expect(messages(['mcp.jsonl'], dir)).toEqual([
      '1:- the tool response holds no JSON envelope: its text block is not JSON (unexpected "tru", at column 8 of its text)',
      '2:- the tool response holds no JSON envelope: its text block is not JSON (unexpected "x", at line 3, column 14 of its text)',
    ]);
  });

  it('UTF-16 without a byte order mark holding non-ASCII text gets the UTF-16 hint, and is not decoded', () => {
    const text = `${JSON.stringify({ ok: false, error: { code: 'window-not-found', category: 'no-target', detail: 'Fenêtre « Paramètres » introuvable' } })}\n`;
    const hint = 'unexpected NUL (U+0000): UTF-16 without a byte order mark? It is read as UTF-16 only after one: save the file as UTF-8, or as UTF-16 with a BOM';
    const dir = tempFiles({ 'le.jsonl': Buffer.from(text, 'utf16le'), 'be.json': Buffer.from(text, 'utf16le').swap16() });
    // Was: invalid UTF-8 (byte 0xea), at the first non-ASCII character.
    const { report } = runJson(['le.jsonl', 'be.json'], { cwd: dir });
    expect(report.findings.map((f: JsonFinding & { source: string }) => [f.source, f.line, f.column, f.message])).toEqual([
      ['le.jsonl', 1, 2, hint],
      // The NUL after the line break, and the one alone on the last line.
      ['le.jsonl', 2, 1, hint],
      ['be.json', 1, 1, hint],
    ]);
    expect(report.summary).toMatchObject({ records: 0, unparseable: 3 });
  });
});

describe('docs/inputs-json.md', () => {
  it('its example, run as written, prints the findings it shows', () => {
    const page = readFileSync(join(repoRoot, 'docs/inputs-json.md'), 'utf8');
    const [, command, output] = /```sh\n(mcec-result [^\n]+)\n```\n\n```text\n([\s\S]*?)```/.exec(page) ?? [];
    expect(command).toBeDefined();
    const { stdout, status } = runCli(command!.split(' ').slice(1));
    expect(status).toBe(1);
    expect(stdout.startsWith(output!)).toBe(true);
  });
});

// merge reads a report's findings one at a time (src/report-reader.ts): whatever it streams must be
// what JSON.parse of the whole file gives, and what it cannot be sure of it must leave alone before
// it hands on a single finding.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { streamReport, type StreamedReport } from '../src/report-reader.js';
import { UsageError } from '../src/errors.js';
import { tempFiles } from './helpers/cli.js';

const folder = tempFiles({});
let files = 0;

function fileOf(content: string | Buffer): string {
  const path = join(folder, `report-${files++}.json`);
  writeFileSync(path, content);
  return path;
}

/** What the reader makes of `content`, read `chunkBytes` at a time; every value taken as a finding. */
function streamed(content: string | Buffer, chunkBytes?: number, isFinding = (_: unknown) => true): { result: StreamedReport; taken: unknown[] } {
  const taken: unknown[] = [];
  const result = streamReport(fileOf(content), isFinding, (finding) => taken.push(finding), { fromBytes: 0, ...(chunkBytes !== undefined && { chunkBytes }) });
  return { result, taken };
}

const finding = (line: number, message = 'unknown error code "x"') => ({ rule: 'unknown-code', severity: 'warning', message, source: 'a.jsonl', line });
const report = (findings: unknown[]) => ({ reportVersion: 1, tool: { name: 'mcec-result', version: '0.1.0' }, schema: { source: 'bundled' }, summary: { inputs: 1, records: 3 }, findings });

/** The reader's answer must be the whole file's: its findings taken, the rest with `findings: []`. */
function expectAsWhole(content: string, chunkBytes?: number): void {
  const whole = JSON.parse(content) as { findings: unknown[] };
  const { result, taken } = streamed(content, chunkBytes);
  expect(result).toEqual({ kind: 'report', head: { ...whole, findings: [] } });
  expect(taken).toEqual(whole.findings);
}

describe('a report read a piece at a time', () => {
  const text = (findings: unknown[], indent?: number) => JSON.stringify(report(findings), null, indent);
  const findings = [finding(1), finding(2, 'a "quoted" [bracket] {brace} \\ back'), finding(3, '"findings": [1, 2]'), finding(4, 'é → 𝄞')];

  it('gives the findings and the rest as JSON.parse does, however the bytes are cut and laid out', () => {
    for (const indent of [undefined, 2, 4]) {
      const content = text(findings, indent);
      for (const chunkBytes of [1, 2, 3, 7, 64, 1 << 20]) expectAsWhole(content, chunkBytes);
    }
    // No finding; members after the findings; a UTF-8 BOM; white space around the object.
    expectAsWhole(text([]), 5);
    expectAsWhole(JSON.stringify({ reportVersion: 1, findings, tool: { name: 'x', version: '1' }, summary: { at: ['[', ']', '{'] } }), 3);
    const bom = streamed(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text(findings, 2))]), 2);
    expect(bom.taken).toEqual(findings);
    expectAsWhole(`\n  ${text(findings)}\n\n`, 4);
  });

  it('reads bad UTF-8 in a finding as the whole file decoded would (U+FFFD)', () => {
    const content = Buffer.from(text([finding(1, 'bad: @')]));
    content[content.indexOf('@')] = 0xff;
    const { result, taken } = streamed(content, 3);
    expect(result.kind).toBe('report');
    expect(taken).toEqual([finding(1, 'bad: \uFFFD')]);
  });

  it('leaves a small report to be read whole (JSON.parse is faster than a cold byte loop)', () => {
    const path = fileOf(text(findings));
    expect(streamReport(path, () => true, () => expect.unreachable())).toEqual({ kind: 'whole' });
    const taken: unknown[] = [];
    expect(streamReport(path, () => true, (finding) => taken.push(finding), { fromBytes: 10 }).kind).toBe('report');
    expect(taken).toEqual(findings);
  });

  it('leaves alone, before taking any finding, what it cannot be sure of', () => {
    const leftAlone = (content: string | Buffer) => {
      const { result, taken } = streamed(content, 4);
      expect(result).toEqual({ kind: 'whole' });
      expect(taken).toEqual([]);
    };
    // A baseline; a report whose findings come before its version; UTF-16.
    leftAlone(JSON.stringify({ baselineVersion: 1, findings: [{ rule: 'schema' }] }));
    leftAlone(JSON.stringify({ findings, reportVersion: 1 }));
    leftAlone(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text(findings), 'utf16le')]));
  });

  it('says so at the first thing wrong, for the caller to read the file whole', () => {
    const content = text(findings, 2);
    for (const wrong of [
      content.slice(0, -10), // cut off inside the findings
      content.slice(0, -1), // cut off before the object closes
      `${content}\n{}`, // a second value (an ndjson report)
      `x${content}`,
      content.replace('"line": 3', '"line": 3,'), // a syntax error in a finding
      content.replace('"inputs": 1,', '"inputs": 1,,'), // and outside them
      '',
      '[]',
    ]) {
      expect(streamed(wrong, 5).result, wrong.slice(0, 40)).toEqual({ kind: 'invalid' });
    }
    // A finding the caller refuses stops the reading: no finding after it is taken.
    const { result, taken } = streamed(content, 5, (value) => (value as { line: number }).line !== 2);
    expect(result).toEqual({ kind: 'invalid' });
    expect(taken).toEqual([findings[0]]);
  });

  it('refuses a report that holds "findings" twice (JSON.parse takes the last, a stream the first)', () => {
    const twice = `{"reportVersion": 1, "findings": [${JSON.stringify(finding(1))}], "findings": []}`;
    expect(() => streamed(twice)).toThrow(UsageError);
    expect(() => streamed(twice)).toThrow(/ holds "findings" twice: a report has one list of findings$/);
  });

  it('a key spelt with escapes is not looked for: its findings stay in the rest, as JSON.parse reads them', () => {
    const escaped = `{"reportVersion": 1, "findin\\u0067s": [${JSON.stringify(finding(1))}]}`;
    const { result, taken } = streamed(escaped, 3);
    expect(result).toEqual({ kind: 'report', head: { reportVersion: 1, findings: [finding(1)] } });
    expect(taken).toEqual([]);
  });

  it('any report JSON.stringify writes, cut anywhere (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', '[', ']', '{', '}', ',', ':', ' ', '\n', 'é', '𝄞', 'f') });
    const member = fc.dictionary(text, fc.oneof(text, fc.integer(), fc.constant(null), fc.array(text, { maxLength: 3 })), { maxKeys: 3 });
    const aFinding = fc.record({ rule: text, message: text, line: fc.nat(), extra: member });
    fc.assert(
      fc.property(member, fc.array(aFinding, { maxLength: 6 }), member, fc.constantFrom(undefined, 1, 2), fc.integer({ min: 1, max: 40 }), (before, listed, after, indent, chunkBytes) => {
        // Members whose names are the reader's own would be other reports; the version comes first.
        const own = new Set(['reportVersion', 'findings', 'baselineVersion']);
        const strip = (m: Record<string, unknown>) => Object.fromEntries(Object.entries(m).filter(([key]) => !own.has(key)));
        const value = { reportVersion: 1, ...strip(before), findings: listed, ...strip(after) };
        expectAsWhole(JSON.stringify(value, null, indent), chunkBytes);
      }),
      { numRuns: 300 },
    );
  });
});

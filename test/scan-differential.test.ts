// Differential test of the scanner's wiring (issue 36 item 4): the same run with the scanner
// (MCEC_RESULT_PARSER=scan) and with the reference path (decode, then JSON.parse) must write
// byte-identical reports, on every fixture, on the property tests' generators (envelopes, mutated
// envelopes, byte corruption, wrappings) and on 100,000 generated records, with --jobs 1 and on
// worker threads.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frameBuffer } from '../src/framing/index.js';
import { scanPlanFor, textPlanOf } from '../src/checks/record-plan.js';
import { scanText } from '../src/framing/scan-text.js';
import { isTypeOnly, wholePlan } from '../src/framing/scan.js';
import { createCheckContext } from '../src/run.js';
import type { Framed } from '../src/types.js';
import { builtWhole } from '../src/unwrap/built-whole.js';
import { unwrapCallToolResult } from '../src/unwrap/mcp.js';
import { type CliResult, repoRoot, runCli, tempFiles } from './helpers/cli.js';
import { callToolResult, envelopeLike, rpcMessage, transcriptLine, truncation } from './helpers/line-arbitraries.js';

const slow = { timeout: 900_000 };

/** Runs `check` with each parser; the reports (stdout) and exit statuses must be the same. */
function expectSameReports(args: readonly string[], label: string): string {
  const reference = runCli(['check', ...args], { env: { MCEC_RESULT_PARSER: 'reference' }, timeoutMs: 600_000 });
  return expectScannedReport(args, reference, label);
}

/** Runs `check` with the scanner; its report and exit status must be the reference run's. */
function expectScannedReport(args: readonly string[], reference: CliResult, label: string): string {
  const scanned = runCli(['check', ...args], { env: { MCEC_RESULT_PARSER: 'scan' }, timeoutMs: 600_000 });
  // Only what the run says of inputs it does not read (a bundle's environment.json), alike.
  expect(reference.stderr, label).not.toMatch(/unexpected|Error/);
  expect(scanned.stderr, label).toBe(reference.stderr);
  expect(scanned.status, label).toBe(reference.status);
  if (scanned.stdout !== reference.stdout) {
    // The first differing line, not a diff of megabytes.
    const a = scanned.stdout.split('\n');
    const b = reference.stdout.split('\n');
    const at = a.findIndex((line, k) => line !== b[k]);
    expect({ label, line: at, scan: a.slice(Math.max(0, at - 3), at + 3) }).toEqual({ label, line: at, scan: b.slice(Math.max(0, at - 3), at + 3) });
  }
  expect(reference.stdout.length, label).toBeGreaterThan(0);
  return reference.stdout;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

describe('which plan the scanner frames with', () => {
  const context = createCheckContext();

  it('the reference path and --extract build with JSON.parse; baselines, HTML record text and a --schema the walk cannot follow build whole values', () => {
    expect(scanPlanFor(context, { parser: 'reference' })).toBeUndefined();
    expect(scanPlanFor(context, { parser: 'scan', extract: true })).toBeUndefined();
    // A --schema's plan is derived from it as the bundled one's is (schema-plan.test.ts).
    expect(scanPlanFor(createCheckContext({ schema: join(repoRoot, 'data/agent-tool-result.schema.json') }), { parser: 'scan' })).not.toBe(wholePlan);
    // A $ref to a file beside the schema: ajv reads it, the plan's walk does not.
    const dir = tempFiles({ 'split.schema.json': JSON.stringify({ $ref: 'common.json' }), 'common.json': JSON.stringify({ type: 'object' }) });
    expect(scanPlanFor(createCheckContext({ schema: join(dir, 'split.schema.json') }), { parser: 'scan' })).toBe(wholePlan);
    expect(scanPlanFor(context, { parser: 'scan', fingerprints: true })).toBe(wholePlan);
    expect(scanPlanFor(context, { parser: 'scan', recordText: true })).toBe(wholePlan);
    // Under --redact no record text is kept, so nothing needs building whole.
    expect(scanPlanFor(createCheckContext({ redact: true }), { parser: 'scan', recordText: true })).not.toBe(wholePlan);
    const observed = scanPlanFor(context, { parser: 'scan' });
    const unobserved = scanPlanFor(createCheckContext({ rules: { 'inline-image': 'off' } }), { parser: 'scan' });
    expect(observed).not.toBe(wholePlan);
    expect(unobserved).not.toBe(observed);
  });

  it('a bare envelope leaves result and partialResult unbuilt, lastObservation too unless inline-image is on and it may hold image bytes; a wrapping is built whole from then on', () => {
    const frame = (text: string, rules = {}): Framed[] => {
      const plan = scanPlanFor(createCheckContext({ rules }), { parser: 'scan' });
      const framed: Framed[] = [];
      frameBuffer(Buffer.from(text), 'ndjson', { plan, builtWhole }, framed);
      return framed;
    };
    const failure = '{"ok":false,"error":{"code":"c","category":"timeout","detail":"d","partialResult":{"a":1},"lastObservation":{"png":"x"}}}';
    const [ok, failed, rpc, after] = frame(`{"ok":true,"result":{"a":[1]},"sessionId":"s"}\n${failure}\n{"jsonrpc":"2.0","id":1,"result":{"ok":true}}\n{"ok":true,"result":{"b":2}}\n`);
    const value = (framed: Framed | undefined) => (framed?.kind === 'value' ? (framed.value as Record<string, any>) : undefined);
    expect(isTypeOnly(value(ok)!['result'])).toBe(true);
    expect(value(ok)!['sessionId']).toBe('s');
    expect(isTypeOnly(value(failed)!['error'].partialResult)).toBe(true);
    expect(isTypeOnly(value(failed)!['error'].lastObservation)).toBe(true);
    const [image] = frame(`${failure.replace('"x"', '"data:image/png;base64,iVBORw0KGgo="')}\n`);
    expect(value(image)!['error'].lastObservation).toEqual({ png: 'data:image/png;base64,iVBORw0KGgo=' });
    expect(value(rpc)!['result']).toEqual({ ok: true });
    expect(value(after)!['result']).toEqual({ b: 2 });
    // The framer refuses a plan that builds in part without being told which values to build whole.
    expect(() => frameBuffer(Buffer.from(`${failure}\n`), 'ndjson', { plan: scanPlanFor(createCheckContext(), { parser: 'scan' }) }, [])).toThrow('a scan plan that builds in part needs builtWhole');
    const [off] = frame(`${failure}\n`, { 'inline-image': 'off' });
    expect(isTypeOnly(value(off)!['error'].lastObservation)).toBe(true);
    // Framed text is the line's, as the reference path gives it; the line's duplicate members are known.
    expect(ok).toMatchObject({ kind: 'value', line: 1, text: '{"ok":true,"result":{"a":[1]},"sessionId":"s"}', noDuplicates: true });
    expect(rpc).not.toHaveProperty('noDuplicates');
    const [twice, inError, inResult, noOk] = frame('{"ok":true,"ok":false}\n{"ok":false,"error":{"code":"a","code":"b"}}\n{"ok":true,"result":{"a":1,"a":2}}\n{"error":{"code":"a","code":"b"}}\n');
    expect(twice).not.toHaveProperty('noDuplicates');
    expect(inError).not.toHaveProperty('noDuplicates');
    // An object without ok is built whole, with nothing located: its text is searched.
    expect(noOk).not.toHaveProperty('noDuplicates');
    // Inside result, duplicate-member does not look.
    expect(inResult).toHaveProperty('noDuplicates', true);
  });
});

describe('an envelope in a text block', () => {
  const plan = textPlanOf(scanPlanFor(createCheckContext(), { parser: 'scan' }))!;
  const envelope = '{"ok":false,"result":{"a":[1]},"error":{"code":"c","category":"timeout","detail":"d","partialResult":{"p":1}}}';

  it('is built by the bare line plan, its duplicate members seen on the way; the reference path and a whole plan have none', () => {
    expect(textPlanOf(undefined)).toBeUndefined();
    expect(textPlanOf(wholePlan)).toBeUndefined();
    const scanned = scanText(envelope, plan);
    expect(isTypeOnly((scanned!.value as Record<string, any>)['result'])).toBe(true);
    expect((scanned!.value as Record<string, any>)['error'].code).toBe('c');
    expect(scanned!.noDuplicates).toBe(true);
    expect(scanText('{"ok":true,"ok":false}', plan)).toEqual({ value: { ok: false }, noDuplicates: false });
    // Past ASCII, and pretty-printed, as JSON.parse reads it.
    expect(scanText('\n {"ok":true,"sessionId":"caf\u00e9 \u{1f600}"}\n', plan)!.value).toEqual({ ok: true, sessionId: 'caf\u00e9 \u{1f600}' });
  });

  it('is left to JSON.parse when the scanner refuses it or it holds a lone surrogate', () => {
    expect(scanText('{"ok":true', plan)).toBeUndefined();
    expect(scanText('Done.', plan)).toBeUndefined();
    expect(scanText('{"ok":true,"sessionId":"\ud800"}', plan)).toBeUndefined();
  });

  it('is built whole beside a structuredContent envelope, which structured-content-mismatch compares it with', () => {
    const content = [{ type: 'text', text: envelope }];
    const alone = unwrapCallToolResult({ content, isError: true }, false, plan);
    expect(alone).toMatchObject({ found: true, noDuplicates: true });
    expect(alone.found && isTypeOnly(alone.envelope['result'])).toBe(true);
    const beside = unwrapCallToolResult({ content, structuredContent: { ...JSON.parse(envelope), result: { a: [2] } }, isError: true }, false, plan);
    expect(beside).toMatchObject({ found: true, noDuplicates: false, envelope: JSON.parse(envelope), findings: [{ rule: 'structured-content-mismatch', pointer: '/result/a/0' }] });
  });
});

/**
 * A --schema whose plan stands in some of what the bundled one builds and builds some of what it
 * stands in: the bundled schema with `result` read inside (a number `n`, a `tree` of any type) and
 * `error.partialResult` compared with a value.
 */
function userSchema(): string {
  const schema = JSON.parse(readFileSync(join(repoRoot, 'data/agent-tool-result.schema.json'), 'utf8'));
  schema.properties.result = { type: ['object', 'null'], required: ['n'], properties: { n: { type: 'number', minimum: 0 }, tree: { type: ['object', 'array', 'string', 'number', 'boolean', 'null'], description: 'any' } } };
  schema.$defs.error.properties.partialResult = { not: { const: { a: 1 } } };
  return join(tempFiles({ 'user.schema.json': JSON.stringify(schema) }), 'user.schema.json');
}

describe('the scanner and the reference path write the same reports', () => {
  it('on every fixture, read as they are and as lines, with --jobs 1 and by default, redacted, with inline-image off and --unwrap none', slow, () => {
    const files = filesUnder(join(repoRoot, 'fixtures'));
    expect(files.length).toBeGreaterThan(100);
    for (const options of [[], ['--jobs', '1'], ['--input', 'ndjson'], ['--input', 'ndjson', '--jobs', '1', '--redact'], ['--rule', 'inline-image=off', '--input', 'ndjson'], ['--unwrap', 'none', '--input', 'ndjson'], ['--schema', userSchema(), '--input', 'ndjson']]) {
      expectSameReports(['--format', 'json', ...options, ...files], `fixtures ${options.join(' ')}`);
    }
    expectSameReports(['--format', 'ndjson', '--input', 'ndjson', ...files], 'fixtures as an ndjson report');
  });

  it("on the property tests' envelopes, mutated envelopes, corrupted bytes and wrappings", slow, () => {
    const sample = <T>(arbitrary: fc.Arbitrary<T>, count: number, seed: number): T[] => fc.sample(arbitrary, { numRuns: count, seed });
    const envelopes = sample(envelopeLike, 3000, 36).map((value) => JSON.stringify(value));
    // Mutated as text: members repeated, values cut or swapped for others, bytes no UTF-8.
    const mutated = sample(fc.tuple(fc.constantFrom(...envelopes), fc.nat(), fc.integer({ min: 0, max: 7 }), fc.constantFrom('\u00ff', '\u{1f600}', '\\ud800', '__proto__', '1e400', '12345678901234567890')), 3000, 37).map(
      ([text, at, how, piece]) => {
        const k = text.length === 0 ? 0 : at % text.length;
        switch (how) {
          case 0:
            return text.replace(/^\{/, `{"ok":${at % 2 === 0},`);
          case 1:
            return text.replace(/\}$/, `,"error":{"code":"a","code":"${piece}"}}`);
          case 2:
            return text.slice(0, k);
          case 3:
            return text.slice(0, k) + text.slice(k + 1);
          case 4:
            return text.replace(/^\{/, `{"${piece}":{"ok":1},"result":[${JSON.stringify(piece)}],`);
          case 5:
            return text.replace(/"result":/, `"result":{"deep":${'['.repeat(at % 200)}${']'.repeat(at % 200)}},"x":`);
          case 6:
            return text.replace(/^\{/, `{"warnings":[{"code":"w","code":"${piece}","detail":"${piece}"}],`);
          default:
            return text.replace(/"ok":/, `"o\\u006b":`);
        }
      },
    );
    const bare = [...envelopes, ...mutated].join('\n') + '\n';
    // Byte corruption: a byte of a line replaced by one framing or UTF-8 decoding cares about.
    const corrupt = Buffer.from(bare);
    for (const [at, byte] of sample(fc.tuple(fc.nat(), fc.constantFrom(0xff, 0xc3, 0xe2, 0x80, 0x0d, 0x22, 0x5c, 0x7b, 0x00)), 3000, 38)) corrupt[at % corrupt.length] = byte;
    const wrapped = [...sample(transcriptLine, 1500, 39), ...sample(rpcMessage, 1000, 40), ...sample(callToolResult, 500, 41), ...sample(truncation, 10, 42)].map((value) => JSON.stringify(value)).join('\n') + '\n';
    const dir = tempFiles({ 'bare.jsonl': bare, 'corrupt.jsonl': corrupt, 'wrapped.jsonl': wrapped, 'bare.json': `[${envelopes.join(',')}]` });
    const inputs = ['bare.jsonl', 'corrupt.jsonl', 'wrapped.jsonl', 'bare.json'].map((name) => join(dir, name));
    // Inputs this small are checked on one thread by default; the 100k test below covers workers.
    const report = expectSameReports(['--format', 'json', '--jobs', '1', ...inputs], 'generated');
    const { summary } = JSON.parse(report);
    // Every shape reached the checks: records, parse errors and skipped wrappings alike.
    expect(summary.records).toBeGreaterThan(5000);
    expect(summary.unparseable).toBeGreaterThan(1000);
    expect(summary.skipped).toBeGreaterThan(100);
  });

  it('on envelopes in text blocks: JSON-RPC captures, MCEC transcripts and MCP results of generated records, with inline-image off, redacted and under a --schema', slow, () => {
    // Records of more values than a schema compiled at run time lists every error of, each rejected.
    const large = Buffer.from(Array.from({ length: 3 }, (_, k) => `{"ok":"yes","result":{"tree":[${'1,'.repeat(25_000 + k)}1],"n":-1},"error":{"code":5,"partialResult":{"a":1}}}\n`).join(''));
    const dir = tempFiles({ 'wrapped.jsonl': wrappedRecords(Buffer.concat([generatedRecords(12_000, 361), large]), 362), 'wrapped.json': `[${wrappedRecords(generatedRecords(300, 363), 364).toString().trim().split('\n').join(',\n')}]` });
    const inputs = [join(dir, 'wrapped.jsonl'), join(dir, 'wrapped.json')];
    for (const options of [['--jobs', '1'], ['--jobs', '1', '--rule', 'inline-image=off', '--redact'], ['--jobs', '1', '--schema', userSchema()]]) {
      const report = expectSameReports(['--format', 'json', ...options, ...inputs], `wrapped ${options.join(' ')}`);
      const { summary, findings } = JSON.parse(report) as { summary: Record<string, number>; findings: { rule: string }[] };
      expect(summary.records).toBeGreaterThan(10_000);
      // Each kind of text the scanner hands back to JSON.parse, or compares whole, was met.
      const rules = new Set(findings.map((finding) => finding.rule));
      for (const rule of ['duplicate-member', 'not-an-envelope', 'structured-content-mismatch', 'is-error-mismatch', 'schema']) expect(rules, rule).toContain(rule);
    }
  });

  it('on 100,000 generated records in one file, with --jobs 1 and on worker threads', slow, () => {
    const dir = tempFiles({ 'records.jsonl': generatedRecords(100_000, 36), 'some.jsonl': generatedRecords(20_000, 37) });
    // A report is the same for any --jobs (jobs.test.ts), so both scanner runs answer to one reference run.
    const args = ['--format', 'json', join(dir, 'records.jsonl')];
    const reference = runCli(['check', '--jobs', '1', ...args], { env: { MCEC_RESULT_PARSER: 'reference' }, timeoutMs: 600_000 });
    for (const jobs of ['1', '2']) {
      const { summary } = JSON.parse(expectScannedReport(['--jobs', jobs, ...args], reference, `100k --jobs ${jobs}`));
      // A line cut to nothing is blank, and no record.
      expect(summary.records + summary.unparseable).toBeGreaterThan(99_900);
      expect(summary.unparseable).toBeGreaterThan(1000);
      expect(summary.invalid).toBeGreaterThan(10_000);
    }
    const { summary } = JSON.parse(expectSameReports(['--format', 'json', '--jobs', '1', '--schema', userSchema(), join(dir, 'some.jsonl')], '20k --schema'));
    expect(summary.invalid).toBeGreaterThan(2000);
  });
});

/**
 * Each generated line's text as the envelope of a tool call's text block, one record a call: a
 * JSON-RPC request and response, an MCEC transcript's request and response, or a CallToolResult
 * alone. The text is sometimes spoiled for the scanner (a lone surrogate, which UTF-8 cannot carry;
 * pretty-printed; followed by a block that is no JSON) or paired with a structuredContent that
 * equals it or differs, and an image block may come first.
 */
function wrappedRecords(lines: Buffer, seed: number): Buffer {
  const next = random(seed);
  const out: string[] = [];
  let id = 0;
  for (const line of lines.toString('utf8').split(/\r?\n/)) {
    if (line.trim() === '') continue;
    let text = line;
    const spoil = next();
    if (spoil < 0.03) text = text.replace(/"([a-z])/, '"\ud800$1');
    else if (spoil < 0.06) text = `\n  ${text.replace(/,/g, ',\n  ')}\n`;
    const blocks: unknown[] = [];
    if (next() < 0.1) blocks.push({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
    blocks.push({ type: 'text', text });
    if (next() < 0.05) blocks.push({ type: 'text', text: next() < 0.5 ? 'Done.' : '{"note":1}' });
    const result: Record<string, unknown> = { content: blocks };
    const structured = next();
    if (structured < 0.1) {
      try {
        const value = JSON.parse(line) as Record<string, unknown>;
        result['structuredContent'] = structured < 0.05 && typeof value === 'object' && value !== null ? { ...value, extra: 1 } : value;
      } catch {
        result['structuredContent'] = { ok: true };
      }
    }
    if (next() < 0.9) result['isError'] = next() < 0.5;
    const call = { name: next() < 0.5 ? 'find' : 'capture', arguments: { value: 'x', n: Math.floor(next() * 3) } };
    const shape = next();
    id++;
    if (shape < 0.4) {
      out.push(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: call }), JSON.stringify({ jsonrpc: '2.0', id, result }));
    } else if (shape < 0.9) {
      const head = { ts: '2026-07-01T08:00:02.497Z', sessionId: next() < 0.9 ? 'a7c3e91f04b2' : 'b80f2d6c4a19', method: 'tools/call' };
      out.push(JSON.stringify({ ...head, direction: 'request', payload: call }), JSON.stringify({ ...head, direction: 'response', payload: { jsonrpc: '2.0', id, result } }));
    } else {
      out.push(JSON.stringify(result));
    }
  }
  return Buffer.from(out.join('\n') + '\n');
}

/** mulberry32: the same records on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    let t = (state = (state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const codes = ['element-not-found', 'timeout-elapsed', 'window-not-found', 'Bad_Code', 'capture-blank-frame'];
const categories = ['timeout', 'no-target', 'capture-blank', 'internal', 'not-a-category'];
const strings = ['plain', 'caf\u00e9', '\u6f22\u5b57', 'emoji \u{1f600}', 'esc \\n \\" \\\\ \\/ \\t', '\\u00e9\\u0000', '\\ud800 lone', '\\udc00\\ud800', '__proto__', ''];
const numbers = ['0', '-0', '1.5e3', '12345678901234567890', '1e400', '-1E-400', '0.1', '9007199254740993'];

/**
 * Lines of records as tools write them and as they go wrong, made from pieces (no JSON.stringify
 * a line): ok and failed envelopes, large results, images in observations, warnings, repeated
 * members, `__proto__`, escapes and lone surrogates, big numbers, wrong types, invalid UTF-8, cut
 * lines, CRLF and blank lines.
 */
function generatedRecords(count: number, seed: number): Buffer {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const str = () => `"${pick(strings)}"`;
  const scalar = () => (next() < 0.5 ? str() : next() < 0.5 ? pick(numbers) : pick(['true', 'false', 'null']));
  const tree = (depth: number): string => {
    if (depth === 0 || next() < 0.3) return scalar();
    const n = Math.floor(next() * 4);
    const items = Array.from({ length: n }, (_, k) => (next() < 0.5 ? tree(depth - 1) : `"k${k}":${tree(depth - 1)}`));
    return items.every((item) => item.startsWith('"k')) ? `{${items.join(',')}}` : `[${items.filter((item) => !item.startsWith('"k') || false).join(',')}]`;
  };
  const warnings = () => `[${Array.from({ length: Math.floor(next() * 3) }, () => (next() < 0.9 ? `{"code":${str()},"detail":${str()}${next() < 0.05 ? ',"code":"again"' : ''}}` : scalar())).join(',')}]`;
  const error = () => {
    const members = [`"code":${next() < 0.9 ? `"${pick(codes)}"` : scalar()}`, `"category":"${pick(categories)}"`, `"detail":${str()}`];
    if (next() < 0.3) members.push(`"partialResult":${next() < 0.8 ? tree(3) : 'null'}`);
    if (next() < 0.3) members.push(`"lastObservation":${next() < 0.5 ? '{"png":"data:image/png;base64,iVBORw0KGgo=","w":3}' : tree(3)}`);
    if (next() < 0.03) members.push(`"code":"${pick(codes)}"`);
    return `{${members.join(',')}}`;
  };
  const parts: Buffer[] = [];
  for (let k = 0; k < count; k++) {
    const members: string[] = [];
    const ok = next() < 0.73;
    members.push(`"ok":${next() < 0.02 ? scalar() : ok}`);
    if (next() < 0.5) members.push(`"sessionId":${next() < 0.9 ? '"5f19c9c01a3f"' : scalar()}`);
    if (ok || next() < 0.05) members.push(`"result":${next() < 0.9 ? `{"tree":${tree(5)},"n":${pick(numbers)}}` : scalar()}`);
    if (!ok || next() < 0.02) members.push(`"error":${next() < 0.95 ? error() : scalar()}`);
    if (next() < 0.1) members.push(`"warnings":${warnings()}`);
    if (next() < 0.03) members.push(`"ok":${next() < 0.5}`);
    if (next() < 0.02) members.push(`"__proto__":{"ok":false}`);
    if (next() < 0.02) members.push(`"extra":${scalar()}`);
    for (let i = members.length - 1; i > 0 && next() < 0.3; i--) {
      const j = Math.floor(next() * (i + 1));
      [members[i], members[j]] = [members[j]!, members[i]!];
    }
    let line = `{${members.join(next() < 0.1 ? ' , ' : ',')}}`;
    const fault = next();
    if (fault < 0.01) line = line.slice(0, Math.floor(next() * line.length));
    else if (fault < 0.02) line = line.replace(/,/, ',,');
    else if (fault < 0.025) line = `${line} x`;
    let bytes = Buffer.from(line);
    if (fault > 0.99) {
      bytes = Buffer.from(bytes);
      bytes[Math.floor(next() * bytes.length)] = next() < 0.5 ? 0xff : 0xc3;
    }
    parts.push(bytes, Buffer.from(next() < 0.05 ? '\r\n' : next() < 0.01 ? '\n\n' : '\n'));
  }
  return Buffer.concat(parts);
}

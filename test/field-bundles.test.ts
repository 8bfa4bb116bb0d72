// MCEC evidence bundles, as folders and as zips (spec section 8.2), run through the built CLI on
// real files: fixtures/field/bundles holds three bundles as MCEC's PowerShell module writes them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@cfworker/json-schema';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const fixture = join(repoRoot, 'fixtures/field/bundles/evidence');
const bundleA = '20260701-101502-5f19c9c01a3f';
const bundleB = '20260701-111020-8c2d7e41b9a0';
const bundleC = '20260702-093344-c41f0a9e2d17';

interface Finding {
  rule: string;
  severity: string;
  message: string;
  source: string;
  line: number;
}

/**
 * Writes a zip with python3's zipfile: `entries` maps names to contents (written as given, so a
 * name may hold `\`); `stored` entries are not deflated.
 */
function writeZip(path: string, entries: Record<string, string | Buffer>, stored: readonly string[] = []): void {
  const spec = Object.entries(entries).map(([name, content]) => ({ name, data: Buffer.from(content).toString('base64'), stored: stored.includes(name) }));
  const script = [
    'import base64, json, sys, zipfile',
    'spec = json.load(sys.stdin)',
    `with zipfile.ZipFile(${JSON.stringify(path)}, "w") as z:`,
    '    for e in spec:',
    '        info = zipfile.ZipInfo(e["name"], date_time=(2026, 7, 1, 10, 16, 40))',
    '        info.compress_type = zipfile.ZIP_STORED if e["stored"] else zipfile.ZIP_DEFLATED',
    '        z.writestr(info, base64.b64decode(e["data"]))',
  ].join('\n');
  const result = spawnSync('python3', ['-c', script], { input: JSON.stringify(spec), encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
}

/** A bundle folder's files, by name. */
function filesOf(folder: string): Record<string, Buffer> {
  return Object.fromEntries(readdirSync(folder).map((name) => [name, readFileSync(join(folder, name))]));
}

/** A bundle's files, from the fixture folder or zip. */
function fixtureBundle(name: string): Record<string, Buffer> {
  try {
    if (statSync(join(fixture, name)).isDirectory()) return filesOf(join(fixture, name));
  } catch {
    // Only as a zip: read below.
  }
  const out = tempFiles({});
  const result = spawnSync('python3', ['-c', `import zipfile; zipfile.ZipFile(${JSON.stringify(join(fixture, `${name}.zip`))}).extractall(${JSON.stringify(out)})`]);
  if (result.status !== 0) throw new Error(String(result.stderr));
  return filesOf(out);
}

/**
 * MCEC's request lines (`payload: {name, arguments}`) as JSON-RPC requests of the id the next line
 * answers: what the checker pairs by id today (the pairing of MCEC's own request lines is spec
 * section 8.1's, built apart from bundles).
 */
function withJsonRpcRequests(transcript: Buffer): Buffer {
  const text = transcript.toString('utf8');
  const rows = text.split('\r\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.replace(/^\uFEFF/, '');
    if (!row.includes('"direction":"request"')) continue;
    const value = JSON.parse(row);
    const id = JSON.parse(rows[i + 1]!).payload.id;
    value.payload = { jsonrpc: '2.0', id, method: 'tools/call', params: value.payload };
    rows[i] = (i === 0 ? '\uFEFF' : '') + JSON.stringify(value);
  }
  return Buffer.from(rows.join('\r\n'), 'utf8');
}

/** The fixture's evidence folder with JSON-RPC request lines, its zips written again from the same files. */
function jsonRpcEvidence(edit: (bundle: string, files: Record<string, Buffer>) => void = () => {}): string {
  const root = tempFiles({});
  for (const name of [bundleA, bundleB, bundleC]) {
    const files = fixtureBundle(name);
    files['tool-calls.jsonl'] = withJsonRpcRequests(files['tool-calls.jsonl']!);
    edit(name, files);
    if (name !== bundleC) {
      mkdirSync(join(root, name));
      for (const [file, content] of Object.entries(files)) writeFileSync(join(root, name, file), content);
    }
    if (name !== bundleB) writeZip(join(root, `${name}.zip`), files);
  }
  return root;
}

const findingsOf = (report: { findings: unknown }) => report.findings as Finding[];

describe('evidence bundle folders', () => {
  it('the fixture folder: bundle metadata is no record, the zip beside its folder is skipped, the zip alone is read', () => {
    const { report, stderr, status } = runJson(['evidence'], { cwd: join(fixture, '..') });
    expect(status).toBe(0);
    // Three transcripts and three session.json; environment.json is not read.
    expect(report.summary.inputs).toBe(6);
    expect(report.summary.unparseable).toBe(0);
    expect(stderr).toBe(`mcec-result: evidence/${bundleA}.zip skipped: the bundle folder evidence/${bundleA} beside it holds the same files (name the zip to check it too)\n`);
    const sources = new Set(findingsOf(report).map((f) => f.source));
    for (const source of sources) expect(source).toMatch(/tool-calls\.jsonl$/);
    expect(Object.keys(report.summary.sessions).sort()).toEqual(['5f19c9c01a3f', '8c2d7e41b9a0', 'c41f0a9e2d17']);
    // MCEC's {name, arguments} request lines pair with the next line (spec 8.1): no finding at all.
    expect(findingsOf(report)).toEqual([]);
    expect(report.summary).toMatchObject({ records: 7, valid: 7, skipped: 7 });
  });

  it('with JSON-RPC request lines: exit 0, no finding, each bundle counted once', () => {
    const root = jsonRpcEvidence();
    const { report, status, stderr } = runJson(['.'], { cwd: root });
    expect(findingsOf(report)).toEqual([]);
    expect(status).toBe(0);
    expect(stderr).toContain(`${bundleA}.zip skipped`);
    expect(report.summary).toMatchObject({ inputs: 6, records: 7, valid: 7, unparseable: 0, skipped: 7 });
    expect(report.summary.sessions).toEqual({
      '5f19c9c01a3f': expect.objectContaining({ records: 3 }),
      '8c2d7e41b9a0': expect.objectContaining({ records: 2 }),
      'c41f0a9e2d17': expect.objectContaining({ records: 2 }),
    });
  });

  it('a session.json naming another session and one saying truncated without a marker: one finding of each, exit 1', () => {
    const root = jsonRpcEvidence((bundle, files) => {
      if (bundle === bundleB) files['session.json'] = Buffer.from(files['session.json']!.toString('utf8').replace('"sessionId":  "8c2d7e41b9a0"', '"sessionId":  "0a1b2c3d4e5f"'));
      if (bundle === bundleC) files['session.json'] = Buffer.from(files['session.json']!.toString('utf8').replace('"toolCallLogTruncated":  false', '"toolCallLogTruncated":  true'));
    });
    const { report, status } = runJson(['.'], { cwd: root });
    expect(status).toBe(1);
    const session = readFileSync(join(root, bundleB, 'session.json'), 'utf8').split('\n');
    const zipped = fixtureBundle(bundleC)['session.json']!.toString('utf8').split('\n');
    expect(findingsOf(report)).toEqual([
      {
        rule: 'bundle-session-mismatch',
        severity: 'error',
        message: 'session.json names session "0a1b2c3d4e5f", but its tool-calls.jsonl holds lines of session "8c2d7e41b9a0"',
        source: `./${bundleB}/session.json`,
        line: session.findIndex((row) => row.includes('"sessionId"')) + 1,
      },
      {
        rule: 'bundle-truncation-mismatch',
        severity: 'warning',
        message: 'session.json says toolCallLogTruncated: true, but its tool-calls.jsonl does not end with the truncation marker: lines may be missing or added after it',
        source: `./${bundleC}.zip!/session.json`,
        line: zipped.findIndex((row) => row.includes('"toolCallLogTruncated"')) + 1,
      },
    ]);
    expect(report.summary).toMatchObject({ inputs: 6, records: 7, errors: 1, warnings: 1 });
    // The same report for any --jobs: a bundle is one unit of work.
    const one = runCli(['check', '-f', 'json', '--jobs', '1', '.'], { cwd: root });
    const two = runCli(['check', '-f', 'json', '--jobs', '2', '.'], { cwd: root });
    expect(two.stdout).toBe(one.stdout);
  });

  it('names up to three other sessions, once per bundle; a transcript ending with the marker agrees with true', () => {
    const line = (sessionId: string, id: number) => JSON.stringify({ ts: '2026-07-01T10:15:02.1234567+02:00', sessionId, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: '{"ok":true,"result":{}}' }], isError: false } } });
    const transcript = [line('a', 1), line('b', 2), line('c', 3), line('d', 4), line('s', 5), '{"truncated":"tool-call log size cap reached"}'].join('\n') + '\n';
    const dir = tempFiles({ 'b/tool-calls.jsonl': transcript, 'b/session.json': '{\n  "sessionId": "s",\n  "toolCallLogTruncated": true\n}\n' });
    const { report } = runJson(['b'], { cwd: dir });
    const bundleFindings = findingsOf(report).filter((f) => f.rule.startsWith('bundle-'));
    expect(bundleFindings).toEqual([{ rule: 'bundle-session-mismatch', severity: 'error', message: 'session.json names session "s", but its tool-calls.jsonl holds lines of sessions "a", "b", "c"', source: 'b/session.json', line: 2 }]);
  });

  it('a member absent or of another type skips its check; toolCallLogTruncated false against a marker is a mismatch', () => {
    const transcript = '{"ts":"2026-07-01T10:15:02Z","sessionId":"x","direction":"request","method":"initialize","payload":{"jsonrpc":"2.0","id":1,"method":"initialize"}}\n{"truncated":"tool-call log size cap reached"}\n';
    const dir = tempFiles({ 'b1/tool-calls.jsonl': transcript, 'b1/session.json': '{"sessionId": 7, "toolCallLogTruncated": "yes"}', 'b2/tool-calls.jsonl': transcript, 'b2/session.json': '{"sessionId":"x",\n"toolCallLogTruncated":false}' });
    const { report } = runJson(['.'], { cwd: dir });
    expect(findingsOf(report).filter((f) => f.rule.startsWith('bundle-'))).toEqual([
      { rule: 'bundle-truncation-mismatch', severity: 'warning', message: 'session.json says toolCallLogTruncated: false, but its tool-calls.jsonl ends with the truncation marker', source: './b2/session.json', line: 2 },
    ]);
  });

  it('session.json that does not parse is one parse error, counted in unparseable; named alone it is checked for nothing else', () => {
    const dir = tempFiles({ 'b/session.json': '{"sessionId": "5f19c9c01a3f",', 'b/environment.json': '{}', 'ok/session.json': '{"sessionId":"5f19c9c01a3f"}', 'ok/failure-summary.md': '# x' });
    const { report, status } = runJson(['b/session.json', 'ok/session.json'], { cwd: dir });
    expect(status).toBe(1);
    expect(findingsOf(report).map((f) => [f.rule, f.source, f.line])).toEqual([
      ['parse-error', 'b/session.json', 1],
      ['no-tool-results', 'ok/session.json', 1],
    ]);
    expect(report.summary).toMatchObject({ inputs: 2, records: 0, unparseable: 1, skipped: 0 });
  });

  it('a bundle with session.json but no transcript: one no-tool-results warning on session.json', () => {
    const dir = tempFiles({ 'run/session.json': '\n{"sessionId":"5f19c9c01a3f","toolCallLogTruncated":false}\n', 'run/environment.json': '{"os":"Windows"}', 'run/failure-summary.md': '# PASS' });
    const { report, status } = runJson(['run'], { cwd: dir });
    expect(status).toBe(0);
    expect(findingsOf(report)).toEqual([{ rule: 'no-tool-results', severity: 'warning', message: 'the bundle holds no tool-calls.jsonl: no tool call was recorded', source: 'run/session.json', line: 2 }]);
    expect(report.summary).toMatchObject({ inputs: 1, records: 0, unparseable: 0, skipped: 0 });
  });

  it('environment.json named on the command line is not read, and says so in one stderr line', () => {
    const dir = tempFiles({ 'b/environment.json': '{"os":"Windows"}', 'b/session.json': '{"sessionId":"5f19c9c01a3f"}', 'b/tool-calls.jsonl': '' });
    const { report, stderr } = runJson(['b/environment.json', 'b/session.json'], { cwd: dir });
    expect(stderr).toBe("mcec-result: b/environment.json is an evidence bundle's environment.json, metadata: not read\n");
    expect(report.summary).toMatchObject({ inputs: 1, records: 0 });
    expect(findingsOf(report)).toEqual([]);
  });

  it('files named session.json or environment.json outside a bundle are inputs as any other', () => {
    const dir = tempFiles({ 'logs/session.json': '{"ok":true,"result":{}}', 'env/environment.json': '{"ok":true,"result":{}}', 'env/failure-summary.md': '# x' });
    const { report } = runJson(['logs', 'env'], { cwd: dir });
    expect(report.summary).toMatchObject({ inputs: 2, records: 2, valid: 2 });
  });

  it('--shard deals out bundles whole: files outside bundles, bundle folders (nested ones their own) and zips, sorted', () => {
    const transcript = (sessionId: string) => `${JSON.stringify({ ts: '2026-07-01T10:15:02Z', sessionId, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '{"ok":true,"result":{}}' }] } } })}\n`;
    const dir = tempFiles({
      'a.jsonl': '{"ok":true,"result":{}}\n',
      'b1/tool-calls.jsonl': transcript('b1'),
      'b1/session.json': '{"sessionId":"b1"}',
      'b1/extra/notes.jsonl': '{"ok":true,"result":{}}\n',
      'b1/inner/tool-calls.jsonl': transcript('inner'),
      'b1/inner/session.json': '{"sessionId":"other"}',
      'b2/tool-calls.jsonl': transcript('b2'),
      'b2/session.json': '{"sessionId":"b2"}',
    });
    writeZip(join(dir, 'z.zip'), { 'tool-calls.jsonl': transcript('z'), 'session.json': '{"sessionId":"z"}' });
    const shards = [1, 2, 3].map((i) => runJson(['.', '--shard', `${i}/3`], { cwd: dir }).report);
    // Units: ./a.jsonl, ./b1, ./b1/inner, ./b2, ./z.zip (sorted): shard 1 has the 1st and 4th.
    const inputsOf = (report: { findings: unknown; summary: { sessions?: Record<string, unknown> } }) => Object.keys(report.summary.sessions ?? {}).sort();
    expect(shards.map(inputsOf)).toEqual([['b2'], ['b1', 'z'], ['inner']]);
    expect(shards.map((r) => r.summary.inputs)).toEqual([3, 5, 2]);
    // The nested bundle's session.json is checked against its own transcript, in its own shard.
    expect(findingsOf(shards[2]!).filter((f) => f.rule.startsWith('bundle-')).map((f) => [f.rule, f.source])).toEqual([['bundle-session-mismatch', './b1/inner/session.json']]);
  });
});

describe('zipped bundles', () => {
  /** A tool call as a transcript records it: the request and its response. */
  const response = (sessionId: string, envelope: { ok: boolean; [member: string]: unknown }) =>
    [
      { ts: '2026-07-01T10:15:02Z', sessionId, direction: 'request', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'capture', arguments: {} } } },
      { ts: '2026-07-01T10:15:03Z', sessionId, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: !envelope.ok } } },
    ]
      .map((line) => `${JSON.stringify(line)}\n`)
      .join('');

  it('a zip named is read; its entries are sources `zip!/entry`; names with \\ read as /; several bundles under one top folder', () => {
    const dir = tempFiles({});
    writeZip(join(dir, 'Evidence.ZIP'), {
      'top\\r1\\tool-calls.jsonl': response('r1', { ok: false, sessionId: 'r1' }),
      'top\\r1\\session.json': '{"sessionId":"r1"}',
      'top\\r1\\environment.json': '{"not":"read"}',
      'top\\r1\\capture-0001.png': Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      'top/r2/tool-calls.jsonl.gz': spawnSync('gzip', ['-c'], { input: response('r2', { ok: true, result: {} }) }).stdout,
      'top/r2/session.json': '{"sessionId":"r2"}',
      'top/r2/inner.zip': Buffer.from('PK\u0005\u0006' + '\u0000'.repeat(18), 'latin1'),
    });
    const { report, status, stderr } = runJson(['Evidence.ZIP'], { cwd: dir });
    expect(stderr).toBe('');
    expect(status).toBe(1);
    expect(findingsOf(report).map((f) => [f.rule, f.source, f.line])).toEqual([['schema', 'Evidence.ZIP!/top/r1/tool-calls.jsonl', 2]]);
    expect(report.summary).toMatchObject({ inputs: 4, records: 2, valid: 1, invalid: 1 });
  });

  it('a walk reads a zip (any case) only when it holds a bundle; a named zip with none is read', () => {
    const dir = tempFiles({ 'logs/.keep': '' });
    writeZip(join(dir, 'logs/plain.zip'), { 'a.jsonl': '{"ok":true,"result":{}}\n' });
    writeZip(join(dir, 'logs/RUN.Zip'), { 'tool-calls.jsonl': response('s', { ok: true, result: {} }) });
    const walked = runJson(['logs'], { cwd: dir });
    expect(walked.report.summary).toMatchObject({ inputs: 1, records: 1 });
    expect(walked.stderr).toBe('');
    const named = runJson(['logs/plain.zip'], { cwd: dir });
    expect(named.report.summary).toMatchObject({ inputs: 1, records: 1 });
  });

  it('a zip named beside its folder is read as well (each bundle then counted in both)', () => {
    const { report, stderr } = runJson([`evidence/${bundleA}.zip`], { cwd: join(fixture, '..') });
    expect(stderr).toBe('');
    expect(report.summary.inputs).toBe(2);
    expect(Object.keys(report.summary.sessions)).toEqual(['5f19c9c01a3f']);
  });

  it('an entry over --max-zip-entry-bytes, or inflating past 1000:1 beyond 1 MiB, is an input failure naming it (a zip bomb)', () => {
    const dir = tempFiles({});
    // 4 MiB of spaces deflate about 1027:1: past both the ratio and its 1 MiB floor, which the
    // central directory's sizes decide before anything is inflated.
    const zeros = Buffer.alloc(4 * 1024 * 1024, 0x20);
    writeZip(join(dir, 'bomb.zip'), { 'b/tool-calls.jsonl': zeros, 'b/ok.jsonl': '{"ok":true,"result":{}}\n' });
    const ratio = runJson(['bomb.zip'], { cwd: dir });
    expect(ratio.status).toBe(2);
    expect(ratio.stderr).toMatch(/^mcec-result: bomb\.zip!\/b\/tool-calls\.jsonl: b\/tool-calls\.jsonl inflates \d+ times its stored size \(4194304 bytes\): a zip bomb\? Extract it and check the file\n$/);
    expect(ratio.report.summary).toMatchObject({ records: 1 });
    writeZip(join(dir, 'big.zip'), { 'big.jsonl': '{"ok":true,"result":{}}\n'.repeat(4000) }, ['big.jsonl']);
    const limited = runJson(['big.zip', '--max-zip-entry-bytes', '64K'], { cwd: dir });
    expect(limited.status).toBe(2);
    expect(limited.stderr).toBe('mcec-result: big.zip!/big.jsonl: big.jsonl inflates to 96000 bytes, more than --max-zip-entry-bytes (65536): a zip bomb? Extract it and check the file, or raise the limit\n');
    expect(runJson(['big.zip'], { cwd: dir }).report.summary).toMatchObject({ records: 4000 });
  });

  it('maxZipEntryBytes in a config file sets the limit; the command line beats it', () => {
    const dir = tempFiles({ 'mcec-result.config.json': JSON.stringify({ maxZipEntryBytes: 10 }) });
    writeZip(join(dir, 'z.zip'), { 'a.jsonl': '{"ok":true,"result":{}}\n' });
    const limited = runCli(['check', 'z.zip'], { cwd: dir });
    expect(limited.status).toBe(2);
    expect(limited.stderr).toBe('mcec-result: z.zip!/a.jsonl: a.jsonl inflates to 24 bytes, more than --max-zip-entry-bytes (10): a zip bomb? Extract it and check the file, or raise the limit\n');
    expect(runCli(['check', 'z.zip', '--max-zip-entry-bytes', '1K'], { cwd: dir }).status).toBe(0);
  });

  /**
   * Edits the local and central headers of one entry as `edit` says: `flags` is the general purpose
   * bit flag (bit 0: encrypted), `method` the compression method.
   */
  function editHeaders(path: string, name: string, edit: (bytes: Buffer, flagsAt: number, methodAt: number) => void): void {
    const bytes = readFileSync(path);
    for (const [signature, flagAt, nameAt] of [[0x04034b50, 6, 30], [0x02014b50, 8, 46]] as const) {
      const marker = Buffer.from(new Uint32Array([signature]).buffer);
      for (let at = bytes.indexOf(marker); at !== -1; at = bytes.indexOf(marker, at + 4)) {
        if (bytes.toString('latin1', at + nameAt, at + nameAt + name.length) === name) edit(bytes, at + flagAt, at + flagAt + 2);
      }
    }
    writeFileSync(path, bytes);
  }

  it('an entry whose data inflates past the size its headers declare stops there: an input failure, never all of it in memory', () => {
    const dir = tempFiles({});
    writeZip(join(dir, 'lying.zip'), { 'a.jsonl': '{"ok":true,"result":{}}\n'.repeat(100_000) });
    // The uncompressed size, 16 bytes after the flags in both headers.
    editHeaders(join(dir, 'lying.zip'), 'a.jsonl', (bytes, flags) => bytes.writeUInt32LE(48, flags + 16));
    const { report, status, stderr } = runJson(['lying.zip'], { cwd: dir });
    expect(status).toBe(2);
    expect(stderr).toMatch(/^mcec-result: lying\.zip!\/a\.jsonl: a\.jsonl cannot be inflated: .+\n$/);
    expect(report.summary.records).toBeLessThan(100_000);
  });

  it('an entry of a compression method other than stored or deflated is an input failure naming it', () => {
    const dir = tempFiles({});
    writeZip(join(dir, 'odd.zip'), { 'a.jsonl': '{"ok":true,"result":{}}\n', 'b.jsonl': '{"ok":true,"result":{}}\n' });
    // 12 is bzip2.
    editHeaders(join(dir, 'odd.zip'), 'b.jsonl', (bytes, _flags, method) => bytes.writeUInt16LE(12, method));
    const { report, status, stderr } = runJson(['odd.zip'], { cwd: dir });
    expect(status).toBe(2);
    expect(stderr).toBe('mcec-result: odd.zip!/b.jsonl: b.jsonl uses a compression method mcec-result does not read (only stored and deflated): extract it and check the files\n');
    expect(report.summary).toMatchObject({ inputs: 1, records: 1 });
  });

  it('an encrypted entry is an input failure naming it; the other entries are read', () => {
    const dir = tempFiles({});
    const path = join(dir, 'locked.zip');
    writeZip(path, { 'a.jsonl': '{"ok":true,"result":{}}\n', 'secret.jsonl': '{"ok":true,"result":{}}\n' });
    // The "encrypted" flag, as a password-protected zip has it.
    editHeaders(path, 'secret.jsonl', (bytes, flags) => bytes.writeUInt16LE(bytes.readUInt16LE(flags) | 1, flags));
    const { report, status, stderr } = runJson(['locked.zip'], { cwd: dir });
    expect(status).toBe(2);
    expect(stderr).toBe('mcec-result: locked.zip!/secret.jsonl: secret.jsonl is encrypted: extract it with its password and check the files\n');
    expect(report.summary).toMatchObject({ inputs: 1, records: 1 });
  });

  it('a zip on standard input is refused: exit 2, save it to a file', () => {
    const dir = tempFiles({});
    writeZip(join(dir, 'z.zip'), { 'a.jsonl': '{"ok":true,"result":{}}\n' });
    const result = runCli(['check', '-'], { cwd: dir, input: readFileSync(join(dir, 'z.zip')) });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('mcec-result: -: standard input is a zip archive, which is read only from a file: save it to a file and name the file\n');
  });

  it('a file that is no zip, named: an input failure', () => {
    const dir = tempFiles({ 'fake.zip': 'not a zip' });
    const result = runCli(['check', 'fake.zip'], { cwd: dir });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^mcec-result: cannot read fake\.zip as a zip archive: /);
  });

  it('SARIF names an entry as an artifact nested in its zip; GitHub annotates the zip and names the entry and line', () => {
    const dir = tempFiles({});
    writeZip(join(dir, 'run.zip'), { 'b/tool-calls.jsonl': `\n${response('s', { ok: false, sessionId: 's' })}`, 'b/session.json': '{"sessionId":"s"}' });
    // One run: SARIF to stdout, GitHub's commands to a file.
    const sarif = JSON.parse(runCli(['check', '-f', 'sarif', '-f', 'github=github.txt', 'run.zip'], { cwd: dir }).stdout);
    const schema = JSON.parse(readFileSync(join(repoRoot, 'test/data/sarif-2.1.0-rtm.5.json'), 'utf8'));
    expect(new Validator(schema, '7', false).validate(sarif).valid).toBe(true);
    const run = sarif.runs[0];
    expect(run.artifacts).toEqual([{ location: { uri: 'run.zip' } }, { location: { uri: 'b/tool-calls.jsonl' }, parentIndex: 0 }]);
    expect(run.results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'b/tool-calls.jsonl', index: 1 }, region: { startLine: 3 } });
    const github = readFileSync(join(dir, 'github.txt'), 'utf8');
    expect(github).toContain('::error file=run.zip,title=schema::b/tool-calls.jsonl, line 3: ok is false, so error is required');
  });

  it('a baseline keys entries as zip!/entry', () => {
    const dir = tempFiles({});
    writeZip(join(dir, 'run.zip'), { 'b/tool-calls.jsonl': response('s', { ok: false, sessionId: 's' }), 'b/session.json': '{"sessionId":"s"}' });
    runCli(['check', 'run.zip', '--write-baseline', 'base.json'], { cwd: dir });
    expect(JSON.stringify(JSON.parse(readFileSync(join(dir, 'base.json'), 'utf8')))).toContain('"run.zip!/b/tool-calls.jsonl"');
    const again = runJson(['run.zip', '--baseline', 'base.json'], { cwd: dir });
    expect(again.status).toBe(0);
    expect(again.report.summary.baseline).toEqual({ suppressed: 1, stale: 0 });
    rmSync(dir, { recursive: true });
  });
});

describe('docs/bundles.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs/bundles.md'), 'utf8');
  const blocks = (lang: string) => [...doc.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
  const commands = blocks('sh').flatMap((block) => block.split('\n').filter((line) => line.startsWith('mcec-result ')));

  /** A copy of fixtures/field/bundles to run in: recipes write reports beside evidence/. */
  function workdir(): string {
    const dir = tempFiles({});
    spawnSync('cp', ['-r', join(fixture), dir]);
    return dir;
  }

  it('every recipe runs as written; the walk of the fixture prints the example output and stderr', () => {
    expect(commands.length).toBeGreaterThanOrEqual(6);
    const dir = workdir();
    const skipped = `mcec-result: evidence/${bundleA}.zip skipped: the bundle folder evidence/${bundleA} beside it holds the same files (name the zip to check it too)\n`;
    const results = new Map<string, ReturnType<typeof runCli>>();
    for (const command of commands) {
      const args = command.split(' ').slice(1);
      const result = runCli(args, { cwd: dir });
      results.set(command, result);
      expect(result.status, command).toBe(0);
      const walksEvidence = args.includes('evidence/') && args[0] === 'check';
      expect(result.stderr, command).toBe(walksEvidence ? skipped : '');
    }
    const sarif = JSON.parse(readFileSync(join(dir, 'bundles.sarif'), 'utf8'));
    const schema = JSON.parse(readFileSync(join(repoRoot, 'test/data/sarif-2.1.0-rtm.5.json'), 'utf8'));
    expect(new Validator(schema, '7', false).validate(sarif).valid).toBe(true);
    // The shards hold every input once between them.
    const parts = ['part-1.json', 'part-2.json'].map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')));
    expect(parts[0].summary.inputs + parts[1].summary.inputs).toBe(6);

    // The recipe `mcec-result check evidence/` is the walk the example shows: the recipes write their
    // reports beside evidence/, never in it, so its output is a fresh copy's.
    const real = results.get('mcec-result check evidence/');
    expect(real, 'the walk recipe').toBeDefined();
    expect(real!.stderr).toBe(blocks('text')[1]!);
    const shown = blocks('text')[0]!.split('\n').filter((line) => line !== '' && line !== '…');
    expect(real!.status).toBe(0);
    const lines = real!.stdout.split('\n');
    let at = 0;
    for (const line of shown) {
      at = lines.indexOf(line, at);
      expect(at, line).toBeGreaterThanOrEqual(0);
    }
  });
});

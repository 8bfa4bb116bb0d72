// --shard and merge: a corpus spread over CI machines gives, merged, the report of one machine.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { binary, lines, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

interface Finding {
  rule: string;
  source: string;
  line: number;
  column?: number;
  pointer?: string;
}
const key = (f: Finding) => `${f.source}:${f.line}:${f.column ?? 0}:${f.rule}:${f.pointer ?? ''}`;
const inputs = ['fixtures/samples', 'fixtures/transcripts', 'fixtures/jsonrpc', 'fixtures/invalid'];
// One run over everything, whose report --shard 1/1 and the merges below are held to, and whose
// baseline the merged baselines are (a run's report is the same with or without --write-baseline).
const wholeBaseline = join(tempFiles({}), 'whole.json');
const everything = runJson(['--write-baseline', wholeBaseline, ...inputs]);
const whole = everything.report;

describe('--shard i/n', () => {
  it('splits the files deterministically: sorted by path, the k-th to shard (k mod n) + 1', () => {
    const dir = tempFiles(Object.fromEntries(['e', 'b', 'd', 'a', 'c'].map((n) => [`${n}.jsonl`, '{"ok":false}\n'])));
    const sourcesOf = (shard: string) => runJson(['--shard', shard, 'e.jsonl', 'b.jsonl', 'd.jsonl', 'a.jsonl', 'c.jsonl'], { cwd: dir }).report.findings.map((f: Finding) => f.source);
    // Command-line order is kept within a shard; membership follows the sorted order a, b, c, d, e.
    expect(sourcesOf('1/2')).toEqual(['e.jsonl', 'a.jsonl', 'c.jsonl']);
    expect(sourcesOf('2/2')).toEqual(['b.jsonl', 'd.jsonl']);
    expect(sourcesOf('2/3')).toEqual(['e.jsonl', 'b.jsonl']);
    expect(runJson(['--shard', '1/1', ...inputs]).report.summary).toEqual(whole.summary);
  });

  it('an empty shard exits 0 with an empty report', () => {
    const dir = tempFiles({ 'a.jsonl': '{"ok":false}\n' });
    const { status, report } = runJson(['--shard', '2/2', 'a.jsonl'], { cwd: dir });
    expect(status).toBe(0);
    expect(report.summary).toMatchObject({ inputs: 0, records: 0 });
  });

  it('rejects a malformed shard', () => {
    for (const shard of ['0/2', '3/2', 'x', '1/0', '2/99999999999999999999']) {
      const result = runCli(['check', '--shard', shard, 'fixtures/samples']);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`mcec-result: --shard: expected i/n with 1 <= i <= n, got "${shard}"\n`);
    }
  });
});

describe('merge', () => {
  const dir = tempFiles({});
  // Each shard's run writes its JSON report and its baseline.
  const shardRuns = [1, 2, 3].map((i) => runCli(['check', '--shard', `${i}/3`, '-f', `json=${join(dir, `shard-${i}.json`)}`, '--write-baseline', join(dir, `baseline-${i}.json`), ...inputs]));
  const shards = [1, 2, 3].map((i) => join(dir, `shard-${i}.json`));
  // The merge of the shards, read by several tests: its JSON on stdout, and the same report as human text and SARIF.
  const rendered = tempFiles({});
  const mergedRun = runCli(['merge', '-f', 'json', '-f', `human=${join(rendered, 'merged.txt')}`, '-f', `sarif=${join(rendered, 'merged.sarif')}`, ...shards]);

  it('gives the summary and the findings of one run over everything', () => {
    const result = mergedRun;
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    const report = JSON.parse(result.stdout);
    expect(report.summary).toEqual(whole.summary);
    expect(report.findings.map(key).sort()).toEqual(whole.findings.map(key).sort());
    expect(Object.keys(report.summary.categories)).toEqual(Object.keys(whole.summary.categories));
    // In the order of one run over the inputs in path order. Was shard by shard.
    const inOrder = runJson([...inputs].sort()).report;
    expect(report.findings.map(key)).toEqual(inOrder.findings.map(key));
  });

  it("keeps a shard's unreadable input: exit 2 and its message, as the shard's check (was exit 0)", () => {
    const part = tempFiles({ 'ok.jsonl': lines({ ok: true, result: {} }) });
    expect(runCli(['check', 'ok.jsonl', 'missing.jsonl', '-f', 'json=part.json'], { cwd: part }).status).toBe(2);
    const merged = runCli(['merge', 'part.json'], { cwd: part });
    expect(merged).toMatchObject({ status: 2, stderr: 'mcec-result: cannot read missing.jsonl: no such file or directory\n' });
    expect(merged.stdout).toContain('(1 input not read)');
  });

  it('merges reports of one --schema however it was spelt, and refuses reports of two schemas', () => {
    const out = tempFiles({});
    const checked = (name: string, ...args: string[]) => {
      runCli(['check', ...args, '-f', `json=${join(out, name)}`, 'fixtures/valid/blank-lines.ndjson']);
      return join(out, name);
    };
    const [plain, dotted, bundled] = [checked('a.json', '--schema', 'test/data/newer.schema.json'), checked('b.json', '--schema', './test/data//newer.schema.json'), checked('c.json')];
    // Was refused: "b.json was checked against another schema".
    expect(runCli(['merge', '-f', 'json', plain, dotted])).toMatchObject({ status: 0, stderr: '' });
    const mixed = runCli(['merge', plain, bundled]);
    expect(mixed.status).toBe(2);
    // Spec section 8.3: a bundled version against a --schema file is told by the version first.
    expect(mixed.stderr).toBe(`mcec-result: merge: ${bundled} was checked against schema version 2026-07, ${plain} against the schema test/data/newer.schema.json: merge reports of one schema version\n`);
  });

  it("merging one report of a baseline run gives check's JSON byte for byte", () => {
    const part = tempFiles({ 'run.jsonl': lines({ ok: false, sessionId: 's1' }, { ok: true, result: {}, sessionId: 's2' }) });
    expect(runCli(['check', 'run.jsonl', '--write-baseline', 'b.json'], { cwd: part }).status).toBe(0);
    writeFileSync(join(part, 'run.jsonl'), lines({ ok: false, sessionId: 's1' }, { ok: false, sessionId: 's3' }));
    const checked = runCli(['check', 'run.jsonl', '--baseline', 'b.json', '-f', 'json'], { cwd: part });
    expect(Object.keys(JSON.parse(checked.stdout).summary).slice(-2)).toEqual(['sessions', 'baseline']);
    writeFileSync(join(part, 'r.json'), checked.stdout);
    // Was: summary.baseline before sessions.
    expect(runCli(['merge', '-f', 'json', 'r.json'], { cwd: part }).stdout).toBe(checked.stdout);
  });

  it('counts a report named twice once: by path, spelt another way, or through a link', () => {
    symlinkSync(shards[0]!, join(dir, 'link.json'));
    const again = runCli(['merge', '-f', 'json', ...shards, `${dir}/./shard-1.json`, join(dir, 'link.json'), shards[1]!]);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(mergedRun.stdout));
  });

  it('reads reports named by a glob (a Windows shell leaves it to the program) and from standard input (-)', () => {
    const merged = (args: string[], input?: string) => JSON.parse(runCli(['merge', '-f', 'json', ...args], input === undefined ? {} : { input }).stdout).summary;
    expect(merged([join(dir, 'shard-*.json')])).toEqual(whole.summary);
    expect(merged(['-', shards[1]!, shards[2]!], readFileSync(shards[0]!, 'utf8'))).toEqual(whole.summary);
    expect(runCli(['merge', join(dir, 'nothing-*.json')])).toMatchObject({ status: 2, stdout: '', stderr: `mcec-result: no reports in ${join(dir, 'nothing-*.json')}: the glob matches no file\n` });
    // Not "everything but shard-3.json", as globby reads a lone negative pattern.
    expect(runCli(['merge', '!shard-3.json'], { cwd: dir })).toMatchObject({ status: 2, stdout: '', stderr: 'mcec-result: !shard-3.json: merge leaves no files out: name the reports, or a glob that matches only them\n' });
    // The report would overwrite a file the glob found: refused before anything is read.
    const over = runCli(['merge', 'shard-*.json', '-f', 'json', '-o', 'shard-2.json'], { cwd: dir });
    expect(over).toMatchObject({ status: 2, stderr: 'mcec-result: shard-2.json is an input, and the report this run writes would overwrite it: write the report to another file\n' });
    expect(JSON.parse(readFileSync(shards[1]!, 'utf8')).reportVersion).toBe(1);
  });

  it("prints a report's name in its warning as it prints any other on stderr: escaped", () => {
    // Was: a raw ESC from the file name on stderr (the error path escaped it already).
    const dir = tempFiles({ 'a.jsonl': '{"ok":false}\n' });
    expect(runCli(['check', '--no-config', 'a.jsonl', '-f', 'json=one.json'], { cwd: dir }).status).toBe(1);
    writeFileSync(join(dir, 'b\u001b[31mred.json'), readFileSync(join(dir, 'one.json')));
    const { stderr } = runCli(['merge', 'one.json', 'b\u001b[31mred.json'], { cwd: dir });
    expect(stderr).toContain('b\\u001b[31mred.json');
    expect(stderr).not.toContain('\u001b');
  });

  it("knows a team's codes, from --codes or the config, as check did: the merged report suggests as the shards' did", () => {
    // Was: suggestions from the bundled registry only, so the summary's "did you mean" was lost.
    const record = (code: string) => JSON.stringify({ ok: false, error: { code, category: 'no-target', detail: 'd' } });
    const dir = tempFiles({ 'a.jsonl': `${record('dialog-missing-entirly')}\n`, 'b.jsonl': `${record('window-not-fonud')}\n`, 'team.json': JSON.stringify({ errorCodes: { 'no-target': ['dialog-missing-entirely'] } }) });
    const whole = runCli(['check', '--no-config', '--codes', 'team.json', 'a.jsonl', 'b.jsonl'], { cwd: dir }).stdout;
    const suggested = (text: string) => text.split('did you mean "dialog-missing-entirely"?').length - 1;
    // The finding's line and the summary's list of unknown codes.
    expect(suggested(whole)).toBe(2);
    for (const i of [1, 2]) runCli(['check', '--no-config', '--codes', 'team.json', '--shard', `${i}/2`, 'a.jsonl', 'b.jsonl', '-f', `json=s${i}.json`], { cwd: dir });
    expect(runCli(['merge', '--no-config', '--codes', 'team.json', 's1.json', 's2.json'], { cwd: dir }).stdout).toBe(whole);
    expect(suggested(runCli(['merge', '--no-config', 's1.json', 's2.json'], { cwd: dir }).stdout)).toBe(1);
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ codes: ['team.json'] }));
    expect(runCli(['merge', 's1.json', 's2.json'], { cwd: dir }).stdout).toBe(whole);
  });

  it("holds the config's maxWarnings as check does, so that the merged verdict is a single run's", () => {
    // Was: check exit 1 over the warnings, merge of its report exit 0.
    const dir = tempFiles({ 'w.jsonl': `${JSON.stringify({ ok: false, error: { code: 'window-not-fonud', category: 'no-target', detail: 'd' } })}\n`, 'mcec-result.config.json': JSON.stringify({ maxWarnings: 0 }) });
    expect(runCli(['check', 'w.jsonl', '-f', 'json=r.json'], { cwd: dir }).status).toBe(1);
    expect(runCli(['check', 'w.jsonl', '--write-baseline', 'b.json'], { cwd: dir }).status).toBe(0);
    expect(runCli(['merge', 'r.json'], { cwd: dir }).status).toBe(1);
    expect(runCli(['merge', 'r.json', '--max-warnings', '1'], { cwd: dir }).status).toBe(0);
    expect(runCli(['merge', '--no-config', 'r.json'], { cwd: dir }).status).toBe(0);
    // Baselines have no verdict: the config's limit does not make their merge a report's.
    expect(runCli(['merge', 'b.json', '-o', 'merged.json'], { cwd: dir }).status).toBe(0);
  });

  it('says when an input has findings in two reports, whose records then count twice', () => {
    const copy = join(tempFiles({}), 'copy-of-shard-1.json');
    writeFileSync(copy, readFileSync(shards[0]!));
    const sources = new Set((JSON.parse(readFileSync(shards[0]!, 'utf8')).findings as Finding[]).map((f) => f.source));
    const [first, ...rest] = sources;
    const result = runCli(['merge', '-f', 'json', ...shards, copy]);
    const more = rest.length === 0 ? '' : ` (and ${rest.length} more input${rest.length === 1 ? '' : 's'} in two reports)`;
    expect(result.stderr).toBe(`mcec-result: merge: ${first} has findings in both ${shards[0]} and ${copy}${more}: its records count twice (the shards of one run share no input)\n`);
    // Said, and merged as asked.
    expect(JSON.parse(result.stdout).summary.records).toBe(whole.summary.records + JSON.parse(readFileSync(shards[0]!, 'utf8')).summary.records);
  });

  it('holds findings as check does (past its budget in a temporary file), listed in place order', () => {
    // Was: every report's findings held as objects at once, until the merge wrote them: six reports
    // of 216k findings each took 1.4 GB, twelve 2.5 GB. 4,000 findings that never repeat pass the
    // 1,000 distinct ones held as objects, so they go through the spool: with nowhere to write it,
    // the merge says so. Their report, over 1 MiB, is read a finding at a time.
    // Codes spelt in letters: messages that differ only in their numbers are one kind in the store.
    const spelt = (i: number) => String(i).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!);
    const records = Array.from({ length: 4000 }, (_, i) => ({ ok: false, error: { code: `zz-unheard-of-${spelt(i)}`, category: 'no-target', detail: 'd' } }));
    const folder = tempFiles({ 'many.jsonl': lines(...records) });
    const parts = ['many.jsonl', join(process.cwd(), 'fixtures/transcripts')];
    const reports = [1, 2].map((i) => {
      const path = join(folder, `part-${i}.json`);
      runCli(['check', '--shard', `${i}/2`, '-f', `json=${path}`, ...parts], { cwd: folder });
      return path;
    });
    const wholeRun = runJson([...parts].sort(), { cwd: folder }).report;
    expect(wholeRun.findings.length).toBeGreaterThan(4000);
    const largest = reports.reduce((a, b) => (readFileSync(a).length >= readFileSync(b).length ? a : b));
    expect(readFileSync(largest).length).toBeGreaterThan(2 ** 20);
    // Read a finding at a time, a report with "findings" twice is refused (read whole, JSON.parse took the last).
    const twiceOver = join(folder, 'twice.json');
    writeFileSync(twiceOver, readFileSync(largest, 'utf8').replace(/\n}\n$/, ',\n  "findings": []\n}\n'));
    expect(runCli(['merge', twiceOver])).toMatchObject({ status: 2, stderr: `mcec-result: report ${twiceOver} holds "findings" twice: a report has one list of findings\n` });
    const merged = runCli(['merge', '-f', 'json', ...reports]);
    expect(merged.stderr).toBe('');
    const report = JSON.parse(merged.stdout);
    expect(report.summary).toEqual(wholeRun.summary);
    expect(report.findings).toEqual(wholeRun.findings);
    const nowhere = join(folder, 'not-a-folder');
    writeFileSync(nowhere, '');
    const spooled = runCli(['merge', '-f', 'json', ...reports], { env: { TMPDIR: nowhere } });
    expect(spooled.status).toBe(2);
    expect(spooled.stderr).toMatch(/^mcec-result: cannot write findings to a temporary file in .*not-a-folder: /);
    // An input in two reports: the second one's findings come after the first one's last, and are
    // merged in at their places, as a stable sort of all of them by input and place puts them.
    const again = join(folder, 'again.json');
    writeFileSync(again, readFileSync(reports[0]!));
    const twice = JSON.parse(runCli(['merge', '-f', 'json', ...reports, again]).stdout).findings as Finding[];
    const listed = [...reports, again].flatMap((path) => JSON.parse(readFileSync(path, 'utf8')).findings as Finding[]);
    const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const expected = listed.sort((a, b) => byCodePoint(a.source, b.source) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0) || byCodePoint(a.rule, b.rule));
    expect(twice).toEqual(expected);
    expect(twice.length).toBe(wholeRun.findings.length + JSON.parse(readFileSync(reports[0]!, 'utf8')).findings.length);
  });

  it('reads a report or a baseline named by a pipe (`<(cat ...)`) whole, since it cannot be read again', () => {
    // A pipe read as a stream up to a baseline's key, then read whole for the baseline, held only
    // what the stream had left: the merge failed on a valid baseline.
    if (process.platform === 'win32') return;
    // Written to stdout, its sources are relative to the run, not to a file (which a pipe is not).
    const folder = tempFiles({});
    const written = runCli(['check', '--no-config', 'fixtures/samples', '--write-baseline', '/dev/stdout', '-f', `json=${join(folder, 'report.json')}`]);
    expect(written.status).toBe(0);
    const baseline = join(folder, 'b.json');
    writeFileSync(baseline, written.stdout);
    const throughPipe = (args: string, path: string) => spawnSync('bash', ['-c', `"$0" "$1" merge ${args} <(cat "$2")`, process.execPath, binary, path], { cwd: repoRoot, encoding: 'utf8' });
    const piped = throughPipe('', baseline);
    expect(piped.stderr).toBe('');
    expect(JSON.parse(piped.stdout).findings).toEqual(JSON.parse(runCli(['merge', baseline]).stdout).findings);
    const report = throughPipe('-f json', shards[0]!);
    expect(report.stderr).toBe('');
    expect(report.stdout).toBe(runCli(['merge', '-f', 'json', shards[0]!]).stdout);
    // A path that cannot be opened is said as before, not as an unexpected failure (a Node parent
    // gives its child a socket for standard input: /dev/stdin cannot be opened).
    expect(runCli(['merge', '/dev/stdin'], { input: '{}' })).toMatchObject({ status: 2, stderr: 'mcec-result: cannot read report /dev/stdin: no such device or address\n' });
  });

  it('renders the merged report in any format', () => {
    const human = readFileSync(join(rendered, 'merged.txt'), 'utf8');
    expect(human).toContain(`in ${whole.summary.inputs} inputs`);
    expect(human).toMatch(/unknown error codes\n(.*\n)*\s+window-not-fonud\s+\d+\s+did you mean "window-not-found"\?/);
    const sarif = JSON.parse(readFileSync(join(rendered, 'merged.sarif'), 'utf8'));
    expect(sarif.runs[0].results).toHaveLength(whole.findings.length);
  });

  it('refuses what is not a JSON report: exit 2, naming the file', () => {
    const bad = tempFiles({ 'not-a-report.json': JSON.stringify({ reportVersion: 2 }) });
    const result = runCli(['merge', join(bad, 'not-a-report.json')]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^mcec-result: report .*not-a-report\.json: .* \(merge takes reports of check --format json, or baselines of check --write-baseline\)\n$/);
    expect(readFileSync(shards[0]!, 'utf8')).toContain('"reportVersion": 1');
    // An ndjson report is no JSON document: was a bare parse error at its line 2, without the hint.
    const dir = tempFiles({ 'run.jsonl': lines({ ok: false }) });
    expect(runCli(['check', '-f', 'ndjson=run.ndjson', 'run.jsonl'], { cwd: dir }).status).toBe(1);
    expect(runCli(['merge', 'run.ndjson'], { cwd: dir })).toMatchObject({
      status: 2,
      stderr: 'mcec-result: report run.ndjson:2:1: unexpected text after the JSON value, found "{" (merge takes reports of check --format json, or baselines of check --write-baseline)\n',
    });
  });

  it('names the key or the values a hand-edited report got wrong, not just ajv\'s "additional properties"', () => {
    const report = JSON.parse(readFileSync(shards[0]!, 'utf8'));
    const typo = structuredClone(report);
    typo.summary.recrods = 1;
    const severity = structuredClone(report);
    severity.findings[0].severity = 'fatal';
    const bad = tempFiles({ 'typo.json': JSON.stringify(typo), 'severity.json': JSON.stringify(severity) });
    const hint = ' (merge takes reports of check --format json, or baselines of check --write-baseline)\n';
    expect(runCli(['merge', join(bad, 'typo.json')]).stderr).toBe(`mcec-result: report ${join(bad, 'typo.json')} at /summary: unknown key "recrods" (did you mean "records"?)${hint}`);
    expect(runCli(['merge', join(bad, 'severity.json')]).stderr).toBe(`mcec-result: report ${join(bad, 'severity.json')} at /findings/0/severity: must be one of: "error", "warning"${hint}`);
  });

  it('merges the baselines of shards into the baseline of one run over everything', () => {
    const out = tempFiles({});
    // The shards' runs and the run over everything wrote them.
    for (const run of shardRuns) expect(run.status).toBe(0);
    const parts = [1, 2, 3].map((i) => join(dir, `baseline-${i}.json`));
    expect(everything.status).toBe(0);
    // A baseline names its sources relative to its folder: these folders are all tempFiles' (siblings), so the names agree.
    const entries = (path: string) => (JSON.parse(readFileSync(path, 'utf8')).findings as { source: string; rule: string; fingerprint: string; count: number }[]).map((e) => `${e.source}:${e.rule}:${e.fingerprint}:${e.count}`).sort();
    const merged = runCli(['merge', ...parts, '-o', join(out, 'merged.json')]);
    expect(merged).toMatchObject({ status: 0, stdout: '', stderr: '' });
    expect(entries(join(out, 'merged.json'))).toEqual(entries(wholeBaseline));
    // Every finding is known to it: a run over everything with it reports none.
    const checked = runJson(['--baseline', join(out, 'merged.json'), ...inputs]).report.summary;
    expect(checked).toMatchObject({ errors: 0, warnings: 0, baseline: { suppressed: whole.findings.length, stale: 0 } });
    // A baseline named twice, or a copy of it, is a union: its counts are not doubled.
    const copy = join(out, 'copy.json');
    copyFileSync(parts[0]!, copy);
    expect(runCli(['merge', ...parts, copy, '-o', join(out, 'again.json')]).status).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'again.json'), 'utf8'))).toEqual(JSON.parse(readFileSync(join(out, 'merged.json'), 'utf8')));
  });

  it('keys sources relative to the baseline, so a run from a subfolder (the config found upward) matches', () => {
    // Was: from evidence/, the root's baseline matched nothing (suppressed 0, stale 0, exit 1).
    const dir = tempFiles({ 'evidence/a.jsonl': '{"ok":false}\n{"ok":true}\n' });
    expect(runCli(['check', 'evidence', '--write-baseline', 'mcec-baseline.json'], { cwd: dir }).status).toBe(0);
    writeFileSync(join(dir, 'mcec-result.config.json'), JSON.stringify({ baseline: 'mcec-baseline.json' }));
    expect(JSON.parse(readFileSync(join(dir, 'mcec-baseline.json'), 'utf8')).findings.map((e: { source: string }) => e.source)).toEqual(['evidence/a.jsonl', 'evidence/a.jsonl']);
    for (const [cwd, input] of [[dir, 'evidence'], [join(dir, 'evidence'), '.'], [join(dir, 'evidence'), 'a.jsonl'], [tempFiles({}), join(dir, 'evidence')]] as const) {
      const args = cwd === dir || cwd.startsWith(join(dir, 'evidence')) ? [input] : ['--config', join(dir, 'mcec-result.config.json'), input];
      const run = runJson(args, { cwd });
      expect(run.status, `${cwd} ${input}`).toBe(0);
      expect(run.report.summary.baseline, `${cwd} ${input}`).toEqual({ suppressed: 2, stale: 0 });
    }
    // Written from a subfolder into the root, it names the same sources.
    expect(runCli(['check', '--no-config', '.', '--write-baseline', '../again.json'], { cwd: join(dir, 'evidence') }).status).toBe(0);
    expect(readFileSync(join(dir, 'again.json'), 'utf8')).toBe(readFileSync(join(dir, 'mcec-baseline.json'), 'utf8'));
  });

  it('standard input, a baseline written to stdout, and one written before sources were relative to it', () => {
    const records = '{"ok":false}\n{"ok":true}\n';
    const dir = tempFiles({ 'sub/a.jsonl': records, 'ci/.keep': '' });
    // Standard input is "-" wherever the baseline is (it was keyed as a file named "-" beside the run).
    expect(runCli(['check', '--no-config', '-', '--write-baseline', 'ci/stdin.json'], { cwd: dir, input: records }).status).toBe(0);
    expect(runJson(['--no-config', '-', '--baseline', 'stdin.json'], { cwd: join(dir, 'ci'), input: records }).report.summary.baseline).toEqual({ suppressed: 2, stale: 0 });
    // To stdout (by any name), where it lands is the shell's: sources stay relative to the run (they were relative to /dev).
    const out = runCli(['check', '--no-config', 'sub/a.jsonl', '--write-baseline', '/dev/stdout', '-f', 'json=report.json'], { cwd: dir });
    expect(JSON.parse(out.stdout)).toMatchObject({ findings: [{ source: 'sub/a.jsonl' }, { source: 'sub/a.jsonl' }] });
    expect(JSON.parse(out.stdout)).not.toHaveProperty('sources');
    writeFileSync(join(dir, 'ci/piped.json'), out.stdout);
    expect(runJson(['--no-config', 'sub/a.jsonl', '--baseline', 'ci/piped.json'], { cwd: dir }).report.summary.baseline).toEqual({ suppressed: 2, stale: 0 });
    // A file names its sources relative to itself, and says so.
    expect(runCli(['check', '--no-config', 'sub/a.jsonl', '--write-baseline', 'ci/b.json'], { cwd: dir }).status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'ci/b.json'), 'utf8'))).toMatchObject({ sources: 'relative to this file', findings: [{ source: '../sub/a.jsonl' }, { source: '../sub/a.jsonl' }] });
  });

  it('refuses a report and a baseline together, and the options of a report with baselines', () => {
    const out = tempFiles({ 'run.jsonl': '{"ok":false}\n' });
    runCli(['check', 'run.jsonl', '--write-baseline', 'b.json'], { cwd: out });
    for (const [args, message] of [
      [['merge', shards[0]!, 'b.json'], `merge: ${shards[0]} is a report and b.json a baseline: merge reports with reports, and baselines with baselines`],
      [['merge', 'b.json', '-f', 'json'], 'merge: --format shapes a report, and baselines merge into a baseline: write it with -o FILE (or to stdout)'],
      [['merge', 'b.json', '--max-warnings', '0'], 'merge: --max-warnings shapes a report, and baselines merge into a baseline: write it with -o FILE (or to stdout)'],
    ] as const) {
      expect(runCli(args, { cwd: out })).toMatchObject({ status: 2, stdout: '', stderr: `mcec-result: ${message}\n` });
    }
  });
});

// Agent recovery (spec section 9) on the transcripts of fixtures/field/recovery/, run through the
// built CLI. expected.json is a reading of the spec made by hand, apart from the code.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecoveryRow } from '../src/types.js';
import { binary, repoRoot, runCli, runJson, tempFiles } from './helpers/cli.js';

const folder = 'fixtures/field/recovery';
const recoveryRules = ['unchanged-retry', 'repeated-failure'] as const;
const counts = ['sameCall', 'changedArguments', 'otherTool', 'end', 'cutOff'] as const;

type Row = RecoveryRow;
interface Expected {
  findings: { rule: string; line: number }[];
  otherFindings: { rule: string; line: number }[];
  recovery: Record<string, Row>;
}
interface JsonFinding {
  rule: string;
  line: number;
  tool?: string;
  pointer?: string;
  column?: number;
}

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const expected = JSON.parse(read(`${folder}/expected.json`)) as Record<string, Expected>;
const fixtures = readdirSync(join(repoRoot, folder), { recursive: true })
  .map(String)
  .filter((name) => name.endsWith('.jsonl'))
  .map((name) => name.replaceAll('\\', '/'))
  .sort();
const enumOrder = (JSON.parse(read('data/agent-tool-result.schema.2026-07.json')) as { $defs: { error: { properties: { category: { enum: string[] } } } } }).$defs.error.properties.category.enum;
const brief = (findings: JsonFinding[]) => findings.map(({ rule, line }) => ({ rule, line }));

const page = read('docs/recovery.md');
const blocks = (lang: string) => [...page.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
const pageCommands = blocks('sh').flatMap((block) => block.split('\n')).filter((line) => line.startsWith('mcec-result '));

/** The rows of the page's recovery table: category, the six counts, the next tools in order. */
function pageRows(text: string) {
  return text
    .split('\n')
    .map((line) => /^\s+([a-z-]+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m) => m !== null)
    .map((m) => ({ category: m[1]!, numbers: m.slice(2, 8).map(Number), next: [...m[8]!.matchAll(/([a-z_-]+) (\d+)/g)].map((t) => [t[1]!, Number(t[2])] as const) }));
}

/** The three most frequent next tools, ties by code point (spec section 9). */
const topThree = (next: Record<string, number>) =>
  Object.entries(next)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 3);

describe('fixtures/field/recovery: expected.json and docs/recovery.md', () => {
  it('every fixture has an entry in expected.json, and every entry a fixture', () => {
    expect(fixtures.length).toBe(6);
    expect(Object.keys(expected).sort()).toEqual(fixtures);
  });

  it.each(Object.entries(expected))('%s: rows in the category order of the bundled schema, the five counts summing to failures', (_file, entry) => {
    const categories = Object.keys(entry.recovery);
    expect(categories.length).toBeGreaterThan(0);
    expect(categories).toEqual(enumOrder.filter((category) => categories.includes(category)));
    for (const [category, row] of Object.entries(entry.recovery)) {
      expect(Object.keys(row).sort(), category).toEqual(['changedArguments', 'cutOff', 'end', 'failures', 'next', 'otherTool', 'sameCall']);
      expect(row.failures, category).toBeGreaterThan(0);
      expect(counts.reduce((sum, key) => sum + row[key], 0), category).toBe(row.failures);
      // `next` counts every next call's tool: one for each failure that has a next call.
      const nextCalls = Object.values(row.next).reduce((sum, n) => sum + n, 0);
      expect(nextCalls, category).toBe(row.sameCall + row.changedArguments + row.otherTool);
    }
    for (const finding of entry.findings) expect(recoveryRules).toContain(finding.rule);
  });

  it('the recovering agent: no finding at all, and every failure followed by other arguments or another tool', () => {
    const entry = expected['recovers-well/tool-calls.jsonl']!;
    expect(entry.findings).toEqual([]);
    expect(entry.otherFindings).toEqual([]);
    for (const row of Object.values(entry.recovery)) expect(row.changedArguments + row.otherTool).toBe(row.failures);
  });

  it('docs/recovery.md shows four commands, each run below as written', () => {
    expect(pageCommands).toEqual([
      `mcec-result check ${folder}/unchanged-retries/tool-calls.jsonl`,
      `mcec-result check --codes recovery-codes.json ${folder}/unchanged-retries/tool-calls.jsonl`,
      `mcec-result check --rule unchanged-retry=error --rule repeated-failure=error ${folder}/unchanged-retries/tool-calls.jsonl`,
      `mcec-result check --rule unchanged-retry=off --rule repeated-failure=off ${folder}/two-sessions/tool-calls.jsonl`,
    ]);
    expect(JSON.parse(blocks('json')[0]!)).toEqual({ recovery: { 'stale-element': { noUnchangedRetry: false } } });
  });

  it("docs/recovery.md's example table is expected.json's, with the top three next tools", () => {
    expect(pageCommands[0]).toBe(`mcec-result check ${folder}/unchanged-retries/tool-calls.jsonl`);
    const recovery = expected['unchanged-retries/tool-calls.jsonl']!.recovery;
    const rows = pageRows(blocks('text')[0]!);
    expect(rows.map((row) => row.category)).toEqual(Object.keys(recovery));
    for (const row of rows) {
      const want = recovery[row.category]!;
      expect(row.numbers, row.category).toEqual([want.failures, ...counts.map((key) => want[key])]);
      expect(row.next, row.category).toEqual(topThree(want.next));
    }
  });
});

describe('fixtures/field/recovery: the checker gives expected.json', () => {
  it.each(fixtures)('%s: the findings of unchanged-retry and repeated-failure, summary.recovery, the other findings and the failures by category', (file) => {
    const { status, report } = runJson([`${folder}/${file}`]);
    const want = expected[file]!;
    expect(status).toBe(0);
    const findings = report.findings as JsonFinding[];
    const ours = findings.filter((f) => (recoveryRules as readonly string[]).includes(f.rule));
    expect(brief(ours)).toEqual(want.findings);
    for (const finding of ours) {
      expect(finding.tool, `${finding.rule} on line ${finding.line}`).toEqual(expect.any(String));
      expect(finding).not.toHaveProperty('pointer');
      expect(finding).not.toHaveProperty('column');
    }
    expect(brief(findings.filter((f) => !(recoveryRules as readonly string[]).includes(f.rule)))).toEqual(want.otherFindings);
    expect(report.summary.recovery).toEqual(want.recovery);
    expect(Object.keys(report.summary.recovery)).toEqual(Object.keys(want.recovery));
    // Agent findings never make a record invalid.
    expect(report.summary.invalid).toBe(0);
    expect(report.summary.unparseable).toBe(0);
    // Each failure of expected.json is a failed record the checker counts, category by category.
    const failures = Object.fromEntries(Object.entries(want.recovery).map(([category, row]) => [category, row.failures]));
    const seen = Object.fromEntries(Object.entries(report.summary.categories as Record<string, number>).filter(([, n]) => n > 0));
    expect(seen).toEqual(failures);
    expect(report.summary.outcomes.failed).toBe(Object.values(failures).reduce((sum, n) => sum + n, 0));
  });

  it('the same report for --jobs 1 and --jobs 2 over all six', () => {
    const inputs = fixtures.map((file) => `${folder}/${file}`);
    const one = runJson(['--jobs', '1', ...inputs]);
    const two = runJson(['--jobs', '2', ...inputs]);
    expect(two.stdout).toBe(one.stdout);
  });

  it('no row without a failure after a call: a passing transcript and bare envelopes add no summary.recovery', () => {
    const passing = runJson(['fixtures/field/mcec-transcripts/pwsh7-pass/tool-calls.jsonl']);
    expect(passing.report.summary).not.toHaveProperty('recovery');
    // Bare envelopes (failures among them) are no calls.
    const bare = runJson(['fixtures/valid/every-category.jsonl']);
    expect(bare.report.summary.outcomes.failed).toBeGreaterThan(0);
    expect(bare.report.summary).not.toHaveProperty('recovery');
  });

  it('merge sums the rows and their next tools', () => {
    const dir = tempFiles({});
    const parts = ['unchanged-retries/tool-calls.jsonl', 'two-sessions/tool-calls.jsonl'];
    parts.forEach((file, k) => {
      const run = runCli(['check', '--format', 'json', '-o', join(dir, `part-${k}.json`), `${folder}/${file}`]);
      expect(run.status, run.stderr).toBe(0);
    });
    const merged = runCli(['merge', '--format', 'json', join(dir, 'part-0.json'), join(dir, 'part-1.json')]);
    expect(merged.status, merged.stderr).toBe(0);
    const sum: Record<string, Row> = {};
    for (const file of parts) {
      for (const [category, row] of Object.entries(expected[file]!.recovery)) {
        const into = (sum[category] ??= { failures: 0, sameCall: 0, changedArguments: 0, otherTool: 0, end: 0, cutOff: 0, next: {} });
        into.failures += row.failures;
        for (const key of counts) into[key] += row[key];
        for (const [tool, n] of Object.entries(row.next)) into.next[tool] = (into.next[tool] ?? 0) + n;
      }
    }
    const recovery = JSON.parse(merged.stdout).summary.recovery as Record<string, Row>;
    expect(recovery).toEqual(sum);
    expect(Object.keys(recovery)).toEqual(enumOrder.filter((category) => category in sum));
  });

  /** A folder with `mcec-result` on PATH and the recovery fixtures at the path the page names. */
  function workdir(): string {
    const dir = tempFiles({});
    cpSync(join(repoRoot, folder), join(dir, folder), { recursive: true });
    mkdirSync(join(dir, '.bin'));
    writeFileSync(join(dir, '.bin/mcec-result'), `#!/bin/sh\nexec "${process.execPath}" "${binary}" "$@"\n`);
    chmodSync(join(dir, '.bin/mcec-result'), 0o755);
    return dir;
  }
  const shell = (command: string, cwd: string) =>
    spawnSync('sh', ['-c', command], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, PATH: `${join(cwd, '.bin')}:${process.env['PATH']}` } as NodeJS.ProcessEnv });
  const warningsOf = (stdout: string, rule: string) => stdout.split('\n').filter((line) => line.trimEnd().endsWith(`  ${rule}`));

  it('docs/recovery.md, the example as written: five unchanged-retry warnings and the table it shows', () => {
    const run = shell(pageCommands[0]!, workdir());
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(warningsOf(run.stdout, 'unchanged-retry').map((line) => Number(/:(\d+)\s/.exec(line)?.[1]))).toEqual([3, 9, 15, 21, 27]);
    // Each row the page shows is a line of the output: the category, its six counts, then its next tools in order.
    const lines = run.stdout.split('\n');
    for (const row of pageRows(blocks('text')[0]!)) {
      const pattern = new RegExp(`^\\s*${row.category}\\s+${row.numbers.join('\\s+')}\\s+(.*)$`);
      const line = lines.find((l) => pattern.test(l));
      expect(line, `a row "${row.category} ${row.numbers.join(' ')}" in:\n${run.stdout}`).toBeDefined();
      const rest = pattern.exec(line!)![1]!;
      let at = 0;
      for (const [tool] of row.next) {
        at = rest.indexOf(tool, at);
        expect(at, `${row.category}: next tool ${tool} in "${rest}"`).toBeGreaterThanOrEqual(0);
      }
    }
  });

  it('docs/recovery.md, the codes file that unmarks stale-element silences line 15 only', () => {
    const dir = workdir();
    writeFileSync(join(dir, 'recovery-codes.json'), blocks('json')[0]!);
    const command = pageCommands.find((c) => c.includes('--codes recovery-codes.json'))!;
    const run = shell(command, dir);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(warningsOf(run.stdout, 'unchanged-retry').map((line) => Number(/:(\d+)\s/.exec(line)?.[1]))).toEqual([3, 9, 21, 27]);
  });

  it('docs/recovery.md, at error severity: exit 1, the records still valid', () => {
    const command = pageCommands.find((c) => c.includes('=error'))!;
    const run = shell(command, workdir());
    expect(run.status).toBe(1);
    expect(warningsOf(run.stdout, 'unchanged-retry').filter((line) => /\s+error\s+/.test(line))).toHaveLength(5);
    const json = runJson(['--rule', 'unchanged-retry=error', `${folder}/unchanged-retries/tool-calls.jsonl`]);
    expect(json.report.summary).toMatchObject({ errors: 5, invalid: 0 });
  });

  it('docs/recovery.md, turned off: no finding, exit 0, the recovery table still counted', () => {
    const command = pageCommands.find((c) => c.includes('=off'))!;
    const run = shell(command, workdir());
    expect(run.status).toBe(0);
    expect(run.stdout).not.toMatch(/(unchanged-retry|repeated-failure)\s*$/m);
    const json = runJson(['--rule', 'unchanged-retry=off', '--rule', 'repeated-failure=off', `${folder}/two-sessions/tool-calls.jsonl`]);
    expect(json.report.findings).toEqual([]);
    expect(json.report.summary.recovery).toEqual(expected['two-sessions/tool-calls.jsonl']!.recovery);
  });
});

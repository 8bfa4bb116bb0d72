// The rule pages (docs/rules/<id>.md, issue 33): one per rule of the catalog, each saying the
// catalog's default severity, and each command on it run as written by the built binary, its
// output holding every line the page shows.
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../src/checks/rules/index.js';
import { ruleCatalog } from '../src/index.js';
import { binary, repoRoot, tempFiles } from './helpers/cli.js';

const pagesDir = join(repoRoot, 'docs/rules');
const pages = readdirSync(pagesDir).filter((name) => name.endsWith('.md')).sort();
const catalogIds = Object.keys(ruleCatalog).sort();
const sections = ['## What it reports', '## A bad record', '## Why it matters', '## How to fix it', '## How to turn it off'];

const read = (page: string) => readFileSync(join(pagesDir, page), 'utf8');

interface Recipe {
  command: string;
  output: string | undefined;
}

/** The fenced `sh` commands of a page, each with the `text` block right after it, if any. */
function recipes(page: string): Recipe[] {
  return [...read(page).matchAll(/```sh\n(.+)\n```\n(?:\n```text\n([\s\S]*?)```)?/g)].map((m) => ({ command: m[1]!, output: m[2] }));
}

const run = (command: string) =>
  spawnSync('sh', ['-c', command.replace(/^mcec-result /, `"${process.execPath}" "${binary}" `)], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined } as NodeJS.ProcessEnv });

/**
 * The exit statuses pages promise for some of their commands (the first recipe each picks), checked
 * on the page test's own run of the command; any other command exits 0 or 1.
 */
const promisedStatuses: Record<string, { recipe: (recipe: Recipe) => boolean; status: number }[]> = {
  // The status follows the severity: 1 for the error recipe, 0 for the example's warning.
  'no-tool-results.md': [
    { recipe: ({ command }) => command.includes('=error'), status: 1 },
    { recipe: ({ output }) => output !== undefined, status: 0 },
  ],
  // --strict-codes makes the example fail.
  'unknown-code.md': [{ recipe: ({ command }) => command.includes('--strict-codes'), status: 1 }],
};

/** Whether the human output lists a finding of the rule (its id ends the finding's line). */
const reports = (stdout: string, id: string) => stdout.split('\n').some((line) => line.endsWith(`  ${id}`));

describe('the rule pages (docs/rules)', () => {
  it('every rule of the catalog has a page, and every page names a rule of the catalog', () => {
    const ids = pages.map((page) => page.replace(/\.md$/, ''));
    expect(ids.filter((id) => !catalogIds.includes(id))).toEqual([]);
    expect(catalogIds.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('the list of rules is the catalog, each naming its own page', () => {
    expect(Object.keys(ruleCatalog)).toEqual(rules.map((rule) => rule.id));
    for (const rule of rules) expect(rule.docs).toBe(`docs/rules/${rule.id}.md`);
  });

  it("the report schema's rule enum is the list of rules, in its order", () => {
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/report-v1.schema.json'), 'utf8')) as { $defs: { finding: { properties: { rule: { enum: string[] } } } } };
    expect(schema.$defs.finding.properties.rule.enum).toEqual(rules.map((rule) => rule.id));
  });

  it.each(pages)('%s: titled by its id, the catalog\'s default severity, the five sections in order', (page) => {
    const id = page.replace(/\.md$/, '');
    const markdown = read(page);
    expect(markdown.split('\n')[0]).toBe(`# ${id}`);
    const severity = /^Default severity: \*\*(\w+)\*\*\. Spec sections? [^\n]+\.$/m.exec(markdown)?.[1];
    expect(severity).toBe(ruleCatalog[id as keyof typeof ruleCatalog]?.defaultSeverity);
    const at = sections.map((heading) => markdown.indexOf(`\n${heading}\n`));
    expect(at.every((index) => index > 0), `${page} sections`).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(markdown).toContain(`--rule ${id}=off`);
    expect(markdown).toContain(`"rules": {"${id}": "off"}`);
  });

  it.each(pages)('%s: every command runs, exits as the page says, and shows the output the page shows', (page) => {
    const id = page.replace(/\.md$/, '');
    const found = recipes(page);
    // The bad record's run (a command with its output), and the rule turned off.
    const example = found.find(({ output }) => output !== undefined);
    expect(example, `${page} example`).toBeDefined();
    expect(found.some(({ command }) => command.includes(`--rule ${id}=off`))).toBe(true);
    const statuses: (number | null)[] = [];
    for (const { command, output } of found) {
      const result = run(command);
      statuses.push(result.status);
      expect(result.stderr, command).toBe('');
      expect([0, 1], command).toContain(result.status);
      const printed = result.stdout.split('\n');
      for (const line of (output ?? '').split('\n').filter((l) => l !== '')) expect(printed, command).toContain(line);
      if (command.includes(`--rule ${id}=off`)) expect(reports(result.stdout, id), command).toBe(false);
    }
    // The example shows the rule itself, and the page's own output says so.
    expect(reports(example!.output!, id)).toBe(true);
    for (const { recipe, status } of promisedStatuses[page] ?? []) {
      const at = found.findIndex(recipe);
      expect(at, `${page}: the command promised to exit ${status}`).toBeGreaterThanOrEqual(0);
      expect(statuses[at], found[at]!.command).toBe(status);
    }
    // The config form the page gives turns it off as the option does.
    const config = join(tempFiles({ 'mcec-result.config.json': JSON.stringify({ rules: { [id]: 'off' } }) }), 'mcec-result.config.json');
    const off = run(example!.command.replace(/^mcec-result check /, `mcec-result check --config "${config}" `));
    expect(off.stderr).toBe('');
    expect(reports(off.stdout, id)).toBe(false);
  });
});

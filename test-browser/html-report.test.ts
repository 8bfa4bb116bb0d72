// The HTML report in a real browser (headless Chromium driven by playwright-core): it loads without
// an error, shows the JSON report's counts, filters and searches its table, marks the member a
// finding points at, and runs no script that came with the data.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { runCli, tempFiles } from '../test/helpers/cli.js';
import { injectionFileName, injectionFiles } from '../test/helpers/html-report.js';

interface JsonReport {
  summary: Record<string, number> & { outcomes: Record<string, number> };
  findings: { rule: string; severity: string; source: string; line: number; pointer?: string; message: string }[];
}

let browser: Browser;
const dir = tempFiles(injectionFiles());

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: inject('chromium') });
});

afterAll(async () => {
  await browser?.close();
});

/** A page opened from its file, with every console error, uncaught exception and dialog it gives. */
async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Anything fetched at all: the page is one file, and its policy forbids loads.
  page.on('request', (request) => {
    if (request.url() !== pathToFileURL(path).href) problems.push(`request: ${request.url()}`);
  });
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load' });
  return { page, problems };
}

const visibleRows = (page: Page) => page.locator('#findings-table tbody tr:not([hidden])').count();

describe('the HTML report of fixtures/samples', () => {
  const html = join(dir, 'samples.html');
  const json = join(dir, 'samples.json');
  let report: JsonReport;

  beforeAll(() => {
    const run = runCli(['check', 'fixtures/samples', '-f', `html=${html}`, '-f', `json=${json}`]);
    expect(run.status).toBe(1);
    report = JSON.parse(readFileSync(json, 'utf8')) as JsonReport;
  });

  it('loads with no console error, exception, dialog or request', async () => {
    const { page, problems } = await open(html);
    await expect(page.locator('#filter-count').textContent()).resolves.toBe(`showing all ${report.findings.length}`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the JSON report's counts", async () => {
    const { page } = await open(html);
    for (const name of ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings']) {
      expect(await page.locator(`[data-total="${name}"] dd`).textContent(), name).toBe(String(report.summary[name]));
    }
    for (const [outcome, count] of Object.entries(report.summary.outcomes)) {
      expect(await page.locator(`[data-chart="outcomes"] g[data-label="${outcome}"]`).getAttribute('data-count'), outcome).toBe(String(count));
    }
    expect(await visibleRows(page)).toBe(report.findings.length);
    await page.close();
  });

  it('narrows the table by rule, severity, input and search words', async () => {
    const { page } = await open(html);
    await page.selectOption('#filter-rule', 'schema');
    const schema = report.findings.filter((f) => f.rule === 'schema');
    expect(schema.length).toBeGreaterThan(1);
    expect(await visibleRows(page)).toBe(schema.length);
    expect(await page.locator('#filter-count').textContent()).toBe(`showing ${schema.length} of ${report.findings.length}`);
    await page.selectOption('#filter-rule', '');
    await page.selectOption('#filter-severity', 'warning');
    expect(await visibleRows(page)).toBe(report.findings.filter((f) => f.severity === 'warning').length);
    await page.selectOption('#filter-severity', '');
    const legacy = report.findings.filter((f) => f.source.endsWith('legacy-server.ndjson'));
    await page.selectOption('#filter-input', legacy[0]!.source);
    expect(await visibleRows(page)).toBe(legacy.length);
    await page.selectOption('#filter-input', '');
    await page.fill('#filter-search', 'ELAPSEDMS envelope');
    expect(await visibleRows(page)).toBe(report.findings.filter((f) => /elapsedMs/.test(f.message)).length);
    expect(await visibleRows(page)).toBe(1);
    await page.close();
  });

  it('marks the member each finding points at in its record', async () => {
    const { page } = await open(html);
    const rows = page.locator('#findings-table tbody tr');
    let marked = 0;
    for (let i = 0; i < report.findings.length; i++) {
      const finding = report.findings[i]!;
      if (finding.pointer === undefined || finding.pointer === '') continue;
      await rows.nth(i).locator('a.record').click();
      await expect(page.locator('#panel').isVisible()).resolves.toBe(true);
      const key = finding.pointer.split('/').pop()!.replaceAll('~1', '/').replaceAll('~0', '~');
      const mark = (await page.locator('#panel mark').textContent())!;
      expect(mark.startsWith(`${JSON.stringify(key)}: `), `${finding.source}:${finding.line} ${finding.pointer}: ${mark}`).toBe(true);
      marked++;
    }
    expect(marked).toBeGreaterThan(5);
    // One by its value too: the misspelt code of agent-run-2026-07-01.jsonl line 43.
    const index = report.findings.findIndex((f) => f.rule === 'unknown-code' && f.line === 43);
    await rows.nth(index).locator('a.record').click();
    expect(await page.locator('#panel mark').textContent()).toBe('"code": "element-not-fuond"');
    expect(await page.locator('#panel-place').textContent()).toBe('fixtures/samples/agent-run-2026-07-01.jsonl:43  /error/code');
    await page.close();
  });
});

describe('the HTML report of records that hold markup', () => {
  it('runs no script of theirs and makes no element of theirs, showing them as text', async () => {
    const html = join(dir, 'injection.html');
    const run = runCli(['check', injectionFileName, '-f', `html=${html}`], { cwd: dir });
    expect(run.status).toBe(1);
    const { page, problems } = await open(html);
    const links = page.locator('a.record');
    for (let i = 0; i < (await links.count()); i++) await links.nth(i).click();
    await page.fill('#filter-search', 'script');
    for (const key of ['rule', 'tool', 'input']) {
      const values = await page.locator(`#filter-${key} option`).evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
      for (const value of values) await page.selectOption(`#filter-${key}`, value);
    }
    expect(problems).toEqual([]);
    // Strings, evaluated in the page: this file is compiled without the DOM's types.
    expect(await page.evaluate('typeof window.pwned')).toBe('undefined');
    expect(await page.evaluate('document.images.length + document.querySelectorAll("[onerror]").length')).toBe(0);
    expect(await page.evaluate('document.scripts.length')).toBe(1);
    // The payloads are on the page, as text.
    const text = await page.locator('#findings-table').textContent();
    expect(text).toContain('</script><img src=x onerror="window.pwned=5;alert(5)">');
    expect(text).toContain(injectionFileName);
    expect(await page.locator('#panel-record').textContent()).toContain('window.pwned=6');
    await page.close();
  });
});

// Inputs for the HTML report's tests (test/html-report.test.ts and the browser tests in
// test-browser/): records whose every data-chosen field tries to end the page's markup or script.
import { lines } from './cli.js';

/** Would run if any of it reached the page as markup: each sets a mark the browser tests look for. */
export const payload = (n: number) => `</script><img src=x onerror="window.pwned=${n};alert(${n})"><script>window.pwned=${n}</script>`;

/** A file name that is markup (no slash: a file name cannot hold one). */
export const injectionFileName = `run<img src=x onerror=alert(9)>.jsonl`;

/**
 * A JSON-RPC capture whose tool name, error code, category, detail and an extra member's name are
 * payloads, and a line that does not parse with one in it.
 */
export function injectionFiles(): Record<string, string> {
  const envelope = { ok: false, error: { code: payload(1), category: payload(2), detail: payload(3) }, [payload(4)]: true };
  const response = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify(envelope) }], isError: true } };
  return {
    [injectionFileName]: lines({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: payload(5), arguments: {} } }, response, `{"ok": true, "result": "${payload(6).replaceAll('"', "'")}"`),
  };
}

/**
 * `count` records, every `every`-th of them with one finding (an unknown code), the rest valid: a
 * file large enough to be checked in byte ranges by several threads.
 */
export function spreadFindings(count: number, every: number): Record<string, string> {
  const records: unknown[] = [];
  for (let i = 0; i < count; i++) {
    records.push(i % every === 0 ? { ok: false, error: { code: 'element-not-fuond', category: 'no-target', detail: `No element matched {name:'Button ${i}'} in 'Calculator'.` } } : { ok: true, result: { clicked: `Button ${i}`, window: 'Calculator', elapsed: i % 1000 }, sessionId: `s${i % 50}` });
  }
  return { 'big.jsonl': lines(...records) };
}

/** `count` records of one finding each (an unknown code, its detail a sentence), as a nightly run's. */
export function manyFindings(count: number): Record<string, string> {
  const records: unknown[] = [];
  for (let i = 0; i < count; i++) {
    records.push({ ok: false, error: { code: 'element-not-fuond', category: 'no-target', detail: `No element matched {name:'Button ${i}'} in the window 'Calculator' after 3 attempts.` }, sessionId: `s${i % 50}` });
  }
  return { 'nightly.jsonl': lines(...records) };
}

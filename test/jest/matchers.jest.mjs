// Jest's side of the matchers, run by test/jest.test.ts with Jest in ESM mode in a temporary project
// whose node_modules/mcec-result links to this repository: the built package, imported through its
// exports as a Jest user imports it. That project's mcec-result.config.json lists a team code and
// makes unknown codes errors.
import { mcecMatchers } from 'mcec-result/matchers';

expect.extend(mcecMatchers);

const ok = { ok: true, result: { window: 'Untitled - Notepad' } };
const failed = (code) => ({ ok: false, error: { code, category: 'no-target', detail: 'the window is minimized' } });
const callToolResult = (envelope, isError) => ({ content: [{ type: 'text', text: JSON.stringify(envelope) }], isError });

test('passes a conformant bare envelope and CallToolResult', () => {
  expect(ok).toBeMcecResult();
  expect(callToolResult(failed('window-not-found'), true)).toBeMcecResult();
});

test('fails, listing each finding as the command line does', () => {
  expect(() => expect({ ok: false }).toBeMcecResult()).toThrow('expected value to be a conformant MCEC result, but:\n  (root)  error    ok is false, so error is required  schema');
  expect(() => expect(callToolResult(ok, true)).toBeMcecResult()).toThrow(/\n {2}\/ok +error +isError is true but ok is true.* {2}is-error-mismatch\n\(settings from mcec-result\.config\.json\)$/);
});

test('.not, with the inverse message', () => {
  expect({ ok: false }).not.toBeMcecResult();
  expect(() => expect(ok).not.toBeMcecResult()).toThrow(/^expected value not to be a conformant MCEC result, but it has no finding\n\(settings from mcec-result\.config\.json\)$/);
  expect(() => expect(ok).not.toBeMcecResult({ config: false })).toThrow(/^expected value not to be a conformant MCEC result, but it has no finding$/);
});

test("reads the project's config: its team code passes, a typo of it is an error", () => {
  expect(failed('team-window-minimized')).toBeMcecResult();
  expect(() => expect(failed('team-window-minimsed')).toBeMcecResult()).toThrow('  /error/code  error    unknown error code "team-window-minimsed" (did you mean "team-window-minimized"?)  unknown-code');
  expect(failed('team-window-minimsed')).toBeMcecResult({ config: false });
  expect(failed('team-window-minimsed')).toBeMcecResult({ rules: { 'unknown-code': 'warning' } });
  expect(failed('team-window-minimsed')).not.toBeMcecResult({ config: false, strict: true });
});

test('takes schemaVersion and refuses a misspelt option', () => {
  // A category schema version 2026-07 added.
  const noText = { ok: false, error: { code: 'ocr-no-text', category: 'ocr-no-text', detail: 'OCR found no text in the region' } };
  expect(noText).toBeMcecResult({ config: false });
  expect(noText).not.toBeMcecResult({ config: false, schemaVersion: '2026-06' });
  expect(() => expect(ok).toBeMcecResult({ strcit: true })).toThrow('toBeMcecResult: unknown option "strcit" (did you mean "strict"?)');
});

test('works as an asymmetric matcher', () => {
  expect({ response: ok }).toEqual({ response: expect.toBeMcecResult() });
  expect({ response: { ok: false } }).not.toEqual({ response: expect.toBeMcecResult() });
});

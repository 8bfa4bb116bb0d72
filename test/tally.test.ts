import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../src/registry/load.js';
import { factsOf } from '../src/checks/envelope.js';
import { Tally, mergeSummaries, suggestionsFor } from '../src/tally.js';
import { byCodePoint } from '../src/findings/order.js';

const categories = ['timeout', 'no-target', 'internal'];

describe('byCodePoint', () => {
  it('sorts by code point: a character past U+FFFF after U+FF5E, which UTF-16 units put it before', () => {
    // Was: "😀" (U+1F600, units D83D DE00) before "～" (U+FF5E), against spec section 6.
    expect(['😀.jsonl', '～.jsonl', 'z.jsonl', 'a.jsonl', '\uE000.jsonl', '\uD7FF.jsonl'].sort(byCodePoint)).toEqual(['a.jsonl', 'z.jsonl', '\uD7FF.jsonl', '\uE000.jsonl', '～.jsonl', '😀.jsonl']);
    expect(['ab', 'a', 'abc', 'a'].sort(byCodePoint)).toEqual(['a', 'a', 'ab', 'abc']);
    expect(byCodePoint('😀', '😁')).toBe(-1);
    expect(byCodePoint('x', 'x')).toBe(0);
  });
});

describe('Tally', () => {
  it("with a schema that names no categories, counts each as one of the schema's, by name, in any split", () => {
    // Was: every category "not a category of the schema" (invalidCategories), though no rule and no check said so.
    const part = (...names: string[]) => {
      const tally = new Tally([], loadRegistry());
      for (const name of names) tally.addRecord(factsOf({ ok: false, error: { code: 'x', category: name } }), false);
      return tally.summary();
    };
    const whole = part('timeout', 'no-target', 'zeta', 'no-target');
    expect(whole.categories).toEqual({ 'no-target': 2, timeout: 1, zeta: 1 });
    expect(Object.keys(whole.categories)).toEqual(['no-target', 'timeout', 'zeta']);
    expect(whole.invalidCategories).toEqual({});
    for (const split of [[part('zeta'), part('timeout', 'no-target', 'no-target')], [part('timeout', 'no-target'), part('zeta', 'no-target')], [part(), part('timeout', 'no-target', 'zeta', 'no-target')]]) {
      expect(JSON.stringify(mergeSummaries(split).categories)).toBe(JSON.stringify(whole.categories));
    }
    // An enum's order stays the schema's.
    const closed = new Tally(['timeout', 'no-target'], loadRegistry());
    closed.addRecord(factsOf({ ok: false, error: { code: 'x', category: 'zeta' } }), false);
    expect(closed.summary()).toMatchObject({ categories: { timeout: 0, 'no-target': 0 }, invalidCategories: { zeta: 1 } });
  });

  it('counts outcomes, categories (every enum member), codes, tools and sessions as spec section 6 does', () => {
    const tally = new Tally(categories, loadRegistry());
    tally.addRecord(factsOf({ ok: true, result: {}, warnings: [{ code: 'tree-truncated' }, { code: 'tree-trunk' }, 'junk'], sessionId: 's1' }), false, 'query');
    tally.addRecord(factsOf({ ok: false, error: { code: 'window-not-found', category: 'no-target' }, sessionId: 's1' }), false, 'find');
    // Counted whatever ok and validity say.
    tally.addRecord(factsOf({ ok: true, error: { code: 'window-not-found', category: 'no_target' } }), true, 'find', 'from-transcript');
    tally.addRecord(factsOf({ ok: 'maybe', error: { code: 7, category: ['timeout'] } }), true, 'query');
    tally.addRecord(factsOf([1, 2]), true);
    tally.addUnparseable();
    tally.addSkipped({ protocolError: true });
    tally.addSkipped({ truncated: true });
    tally.addSkipped();
    const summary = tally.summary();
    expect(summary).toEqual({
      inputs: 0,
      records: 5,
      valid: 2,
      invalid: 3,
      unparseable: 1,
      skipped: 3,
      // Inputs and findings are counted by the run, which knows them.
      errors: 0,
      warnings: 0,
      protocolErrors: 1,
      truncated: 1,
      outcomes: { ok: 2, failed: 1, unknown: 2 },
      categories: { timeout: 0, 'no-target': 1, internal: 0 },
      invalidCategories: { no_target: 1 },
      codes: { 'window-not-found': 2 },
      unknownCodes: {},
      warningCodes: { 'tree-trunk': 1, 'tree-truncated': 1 },
      unknownWarningCodes: { 'tree-trunk': 1 },
      // Spec section 8.6: a tool's records are ok, failed or unknown, as a session's are.
      tools: { find: { records: 2, ok: 1, failed: 1, unknown: 0 }, query: { records: 2, ok: 1, failed: 0, unknown: 1 } },
      sessions: { 'from-transcript': { records: 1, ok: 1, failed: 0, unknown: 0 }, s1: { records: 2, ok: 1, failed: 1, unknown: 0 } },
    });
    expect(suggestionsFor(summary, loadRegistry())).toEqual({ codes: {}, warningCodes: {} });
  });

  it('counts sessions in runs, interleaved and returning, as a Map of every record would', () => {
    // The tally remembers the session it counted last (logs hold a session's calls in a run): a
    // session coming back after others, records without one between, and equal ids in new strings.
    const ids = ['a', 'a', 'a', 'b', 'a', undefined, 'a', 'c', 'c', 'b', undefined, 'b', 'a'];
    // Each record's id a string of its own, as JSON.parse makes them (a one-character one it shares).
    const idText = (id: string) => ['session', id].join('-');
    const tally = new Tally(categories, loadRegistry());
    const expected = new Map<string, { records: number; ok: number; failed: number; unknown: number }>();
    ids.forEach((id, i) => {
      const ok = i % 3 !== 0;
      tally.addRecord(factsOf({ ok, ...(id !== undefined && { sessionId: idText(id) }) }), false);
      if (id === undefined) return;
      const counts = expected.get(idText(id)) ?? { records: 0, ok: 0, failed: 0, unknown: 0 };
      counts.records++;
      counts[ok ? 'ok' : 'failed']++;
      expected.set(idText(id), counts);
    });
    expect(tally.summary().sessions).toEqual(Object.fromEntries(expected));
    expect(tally.summary().sessions).toEqual({ 'session-a': { records: 6, ok: 3, failed: 3, unknown: 0 }, 'session-b': { records: 3, ok: 1, failed: 2, unknown: 0 }, 'session-c': { records: 2, ok: 2, failed: 0, unknown: 0 } });
  });

  it('sorts distributions by count, then by code point, and omits tools and sessions when none are known', () => {
    const tally = new Tally(categories, loadRegistry());
    for (const code of ['b-code', 'a-code', 'b-code', 'window-not-fonud']) {
      tally.addRecord(factsOf({ ok: false, error: { code, category: 'internal' } }), false);
    }
    const summary = tally.summary();
    expect(Object.entries(summary.codes)).toEqual([
      ['b-code', 2],
      ['a-code', 1],
      ['window-not-fonud', 1],
    ]);
    expect(summary.tools).toBeUndefined();
    expect(summary.sessions).toBeUndefined();
    expect(suggestionsFor(summary, loadRegistry()).codes).toEqual({ 'window-not-fonud': 'window-not-found' });
  });
});

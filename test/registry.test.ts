import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { loadRegistry } from '../src/registry/load.js';
import { CandidateTrie, editDistance, nearestName, normalizeName } from '../src/registry/nearest.js';
import { CodeRegistry } from '../src/registry/registry.js';

/** The whole table, the textbook way: what the banded editDistance must agree with. */
function fullDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length]!;
}

describe('nearestName', () => {
  it('suggests the one candidate within two edits, ignoring case and _ vs -', () => {
    expect(nearestName('window-not-fonud', ['window-not-found', 'element-not-found'])).toBe('window-not-found');
    expect(nearestName('no_target', ['no-target', 'timeout'])).toBe('no-target');
    expect(nearestName('Timeout', ['no-target', 'timeout'])).toBe('timeout');
  });

  it('suggests nothing when none or several candidates are close', () => {
    expect(nearestName('completely-different', ['window-not-found'])).toBeUndefined();
    expect(nearestName('focus-not-se', ['focus-not-set', 'focus-not-sen'])).toBeUndefined();
  });

  it('stops counting edits past the limit', () => {
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('abc', 'abd')).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz')).toBe(3);
  });

  it('agrees with the full table, capped at limit + 1, for any strings and limits', () => {
    // A small alphabet, so that near misses (the band's edges) are common.
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '-'), maxLength: 14 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 4 }), (a, b, limit) => {
        expect(editDistance(a, b, limit)).toBe(Math.min(fullDistance(a, b), limit + 1));
      }),
      { numRuns: 3000 },
    );
  });

  it('is linear in the length: a 100k-digit code against its {n} pattern', () => {
    const digits = '7'.repeat(100_000);
    expect(editDistance(`selector-matched-${digits}x`, `selector-matched-${digits}`)).toBe(1);
    expect(loadRegistry().nearestErrorCode(`selector-matched-${digits}x`)).toBe(`selector-matched-${digits}`);
  });
});

describe('CandidateTrie', () => {
  /** Every name within two edits, the slow way: what the trie's search must find. */
  const withinTwo = (wanted: string, names: readonly string[]) => names.filter((name) => fullDistance(normalizeName(wanted), normalizeName(name)) <= 2).sort();
  const found = (trie: CandidateTrie, wanted: string, number = '') => {
    const names: string[] = [];
    trie.search(normalizeName(wanted), number, (name) => names.push(name) > 0);
    return names.sort();
  };

  it('finds exactly the names within two edits, for any names', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'C', '-', '_'), maxLength: 8 });
    fc.assert(
      fc.property(fc.uniqueArray(text, { maxLength: 12 }), text, (names, wanted) => {
        expect(found(new CandidateTrie(names), wanted)).toEqual(withinTwo(wanted, names));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a template\'s placeholder as the number, and only the literal placeholder', () => {
    const digits = fc.stringMatching(/^[0-9]{1,4}$/);
    const part = fc.string({ unit: fc.constantFrom('a', 'b', '-', '1'), maxLength: 5 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('{n}')), { maxLength: 6 }), part, digits, (templates, wanted, number) => {
        // Each template on its own: two may read as one name (`a1` and `a{n}` with the number 1).
        const expected = templates.filter((template) => withinTwo(wanted, [template.replaceAll('{n}', number)]).length > 0);
        expect(found(new CandidateTrie(templates, '{n}'), wanted, number)).toEqual(expected.sort());
      }),
      { numRuns: 2000 },
    );
    expect(found(new CandidateTrie(['x-{N}-{n}'], '{n}'), 'x-{n}-7', '7')).toEqual(['x-{N}-{n}']);
    // fast-check's counterexample to the oracle this test had, which kept one template of the two.
    expect(found(new CandidateTrie(['a1', 'a{n}'], '{n}'), '', '1')).toEqual(['a1', 'a{n}']);
  });

  it('visits the neighbourhood of the wanted name, not the whole registry', () => {
    // 48k codes as registries name them: each unknown code was compared with every one of them
    // (8 ms a distinct code, 20k of them in 4 minutes).
    const words = 'window element frame focus capture record session command agent consent engine launch region pattern selector clipboard image screen mouse click scroll menu button field tree node table dialog file path folder network socket token user group policy rule parse read write open close start stop create delete update'.split(' ');
    const states = ['not-found', 'faulted', 'failed', 'denied', 'missing', 'invalid', 'unknown', 'stale', 'closed', 'busy', 'blocked', 'expired', 'empty', 'too-large', 'disabled', 'dropped', 'pending', 'timeout', 'unsupported', 'out-of-bounds', 'full'];
    const codes = words.flatMap((a) => words.flatMap((b) => states.map((state) => `${a}-${b}-${state}`)));
    expect(codes.length).toBeGreaterThan(45_000);
    const trie = new CandidateTrie(codes);
    expect(found(trie, 'window-mouse-not-fonud')).toEqual(['window-mouse-not-found']);
    expect(trie.visited).toBeLessThan(1_000);
    expect(found(trie, 'session-focusx-faulted')).toEqual(['session-focus-faulted']);
    expect(trie.visited).toBeLessThan(1_000);
    const registry = new CodeRegistry([{ errorCodes: { internal: codes } }]);
    // 20k distinct unknown codes, past the cap of remembered suggestions: `x<i>` is more than two
    // edits from every word, so none is suggested.
    let suggested = 0;
    for (let i = 0; i < 20_000; i++) if (registry.nearestErrorCode(`${words[i % words.length]}-x${i}-${states[i % states.length]}`) !== undefined) suggested++;
    expect(suggested).toBe(0);
    expect(registry.nearestErrorCode('table-tree-expird')).toBe('table-tree-expired');
  });
});

describe('{n} patterns', () => {
  it('match whole numbers between literal parts, nothing else', () => {
    const registry = new CodeRegistry([{ errorCodes: { timeout: ['retry-{n}-of-{n}'] } }]);
    expect(registry.isKnownErrorCode('retry-2-of-10')).toBe(true);
    expect(registry.isKnownErrorCode('retry-2-of-')).toBe(false);
    expect(registry.isKnownErrorCode('retry-2-of-10x')).toBe(false);
  });

  it('a template listed under two categories, in one file or two, is one pattern of both', () => {
    const registry = new CodeRegistry([{ errorCodes: { timeout: ['retry-{n}'], focus: ['retry-{n}'] } }, { errorCodes: { internal: ['retry-{n}'] } }]);
    expect([...registry.errorCodeCategories('retry-3')!].sort()).toEqual(['focus', 'internal', 'timeout']);
  });

  it('a code listed as itself and matching templates belongs to the categories of all of them', () => {
    // Was the first match's alone: "retry-15" under timeout was a code-category-mismatch.
    const registry = new CodeRegistry([{ errorCodes: { focus: ['retry-{n}', 'retry-0'], timeout: ['retry-1{n}'], 'no-target': ['retry-0'] } }, { errorCodes: { internal: ['retry-1{n}'] } }]);
    expect([...registry.errorCodeCategories('retry-15')!].sort()).toEqual(['focus', 'internal', 'timeout']);
    expect([...registry.errorCodeCategories('retry-3')!]).toEqual(['focus']);
    expect([...registry.errorCodeCategories('retry-0')!].sort()).toEqual(['focus', 'no-target']);
    expect(registry.errorCodeCategories('retry-x')).toBeUndefined();
  });

  it('the categories of a code are those of every template it matches, in the order added, for any templates and codes', () => {
    // Templates are looked up by their text before the first {n}; the reference tests every one.
    const part = fc.constantFrom('a', 'b', '-', 'ab', '{n}', '1');
    const template = fc.array(part, { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));
    const code = fc.array(fc.constantFrom('a', 'b', '-', '1', '12', '0'), { maxLength: 6 }).map((parts) => parts.join(''));
    const categories = ['timeout', 'focus', 'internal'];
    fc.assert(
      fc.property(fc.array(fc.tuple(template, fc.constantFrom(...categories)), { maxLength: 12 }), fc.array(code, { maxLength: 10 }), (listed, codes) => {
        const errorCodes: Record<string, string[]> = {};
        for (const [name, category] of listed) (errorCodes[category] ??= []).push(name);
        const registry = new CodeRegistry([{ errorCodes }]);
        // The order a registry adds them in: category by category, as the file lists them.
        const added = Object.entries(errorCodes).flatMap(([category, names]) => names.map((name) => [name, category] as const));
        for (const wanted of codes) {
          const expected = new Set<string>();
          for (const [name, category] of added) if (name === wanted) expected.add(category);
          const templates = [...new Set(added.filter(([name]) => name.includes('{n}')).map(([name]) => name))];
          for (const name of templates) {
            const regex = new RegExp(`^${name.split('{n}').map((p) => p.replace(/[-]/g, '\\-')).join('\\d+(?!\\d)')}$`);
            if (regex.test(wanted)) for (const [other, category] of added) if (other === name) expected.add(category);
          }
          const got = registry.errorCodeCategories(wanted);
          expect(got === undefined ? undefined : [...got], wanted).toEqual(expected.size === 0 ? undefined : [...expected]);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a code is tested against the templates of its own prefixes, not every template', () => {
    const templates = Array.from({ length: 5000 }, (_, i) => `family-${i % 50}-kind-${i}-{n}`);
    const registry = new CodeRegistry([{ errorCodes: { timeout: templates } }]);
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      expect(registry.isKnownErrorCode('family-7-kind-57-12')).toBe(true);
      expect(registry.isKnownErrorCode('unknown-code-3')).toBe(false);
      // Two lookups, one template each could match; a scan of all of them was 10,000 tests.
      expect(test.mock.calls.length).toBeLessThanOrEqual(2);
    } finally {
      test.mockRestore();
    }
  });

  it('a placeholder is the whole run of digits, so adjacent ones cannot make matching explode', () => {
    // As plain \d+, `a{n}{n}` matched "a12" (cut as 1 and 2), and matching tried every way to cut
    // the digits: 10 placeholders against 30 digits took 1.5 s, 25 against 40 no answer in 30 s.
    const registry = new CodeRegistry([{ errorCodes: { timeout: ['a{n}{n}', `b${'{n}'.repeat(25)}`] }, warningCodes: [`w${'{n}'.repeat(10)}`] }]);
    expect(registry.isKnownErrorCode('a12')).toBe(false);
    expect(registry.isKnownErrorCode(`b${'1'.repeat(40)}x`)).toBe(false);
    expect(registry.isKnownWarningCode(`w${'1'.repeat(30)}x`)).toBe(false);
  });
});

describe('the bundled registry', () => {
  const registry = loadRegistry();

  it('knows the codes of spec section 2, with their categories', () => {
    expect(registry.isKnownErrorCode('window-not-found')).toBe(true);
    expect([...registry.errorCodeCategories('frame-all-black')!].sort()).toEqual(['capture-blank', 'ocr-blank']);
    expect([...registry.errorCodeCategories('unknown-command')!].sort()).toEqual(['internal', 'invalid-argument']);
    expect(registry.isKnownWarningCode('minimized-window')).toBe(true);
    expect(registry.isKnownErrorCode('minimized-window')).toBe(false);
  });

  it('reads selector-matched-{n} as a family of whole numbers, 0 included', () => {
    expect(registry.isKnownErrorCode('selector-matched-0')).toBe(true);
    expect(registry.isKnownErrorCode('selector-matched-12')).toBe(true);
    expect(registry.isKnownErrorCode('selector-matched-')).toBe(false);
    expect(registry.isKnownErrorCode('selector-matched-two')).toBe(false);
    expect(registry.nearestErrorCode('selector-matchd-3')).toBe('selector-matched-3');
  });

  it("fills a template's {n} with the code's own numbers, the nearest way", () => {
    // Was the first run of digits for every {n}: -3, -2 and retry-2-of-2, which change the count reported.
    expect(registry.nearestErrorCode('sel3ctor-matched-5')).toBe('selector-matched-5');
    expect(registry.nearestErrorCode('selector2-matched-5')).toBe('selector-matched-5');
    expect(registry.nearestErrorCode('selector-matched-x')).toBe('selector-matched-2');
    const retries = new CodeRegistry([{ errorCodes: { timeout: ['retry-{n}-of-{n}'] } }]);
    expect(retries.nearestErrorCode('retry-2-off-3')).toBe('retry-2-of-3');
    expect(retries.nearestErrorCode('retry-2-of-3x')).toBe('retry-2-of-3');
    expect(retries.nearestErrorCode('rety-12-of-15')).toBe('retry-12-of-15');
  });

  it('suggests the nearest known code for a typo', () => {
    expect(registry.nearestErrorCode('window-not-fonud')).toBe('window-not-found');
    expect(registry.nearestWarningCode('minimised-window')).toBe('minimized-window');
  });
});

describe('data/codes.json', () => {
  it('is a valid codes file (it is not validated at start-up)', async () => {
    const { readCodesFile } = await import('../src/registry/load.js');
    expect(readCodesFile('data/codes.json').errorCodes?.['no-target']).toEqual(['window-not-found', 'element-not-found']);
  });
});

// The known error and warning codes (spec section 2) as data: the bundled data/codes.json merged
// with any `--codes` files. Codes may contain `{n}` for a whole number (`selector-matched-{n}`).
import { CandidateTrie, editDistance, maxEdits, normalizeName } from './nearest.js';
import { bundledCategories, type RecoveryAdvice } from './recovery.js';

export interface CodesFile {
  errorCodes?: Record<string, string[]>;
  warningCodes?: string[];
  /** Per category, the members of its recovery advice this file replaces (spec section 9). */
  recovery?: Record<string, Partial<RecoveryAdvice>>;
}

interface CodePattern {
  template: string;
  regex: RegExp;
  categories: Set<string>;
  /** Its place in the order added: matches give their categories in that order. */
  order: number;
}

const placeholder = '{n}';
/** Bounds the caches of pattern matches and misses, whatever codes a corpus invents. */
const maxRemembered = 10_000;

function isPattern(code: string): boolean {
  return code.includes(placeholder);
}

/**
 * `{n}` is the whole run of digits there (`\d+` not followed by a digit), never part of one, so
 * each placeholder has one way to match: as a plain `\d+`, `x{n}{n}...` would backtrack through
 * every way of cutting a long number of a code.
 */
function patternRegex(template: string): RegExp {
  const parts = template.split(placeholder).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('\\d+(?!\\d)')}$`);
}

/** The runs of digits in a code, in order, at most `maxRuns` of them (a code is data). */
function digitRuns(code: string): string[] {
  return (code.match(/\d+/g) ?? []).slice(0, maxRuns);
}
const maxRuns = 8;
/** Ways of giving a template's placeholders runs of the code's, in order, tried for a suggestion. */
const maxFills = 64;

function binomial(n: number, k: number): number {
  let ways = 1;
  for (let i = 0; i < k; i++) ways = (ways * (n - i)) / (i + 1);
  return ways;
}

/** Each way of taking `k` of `n` items in order (indices), while there are at most maxFills of them. */
function* inOrder(n: number, k: number, from = 0, taken: number[] = []): Generator<number[]> {
  if (taken.length === k) yield taken;
  else for (let i = from; i <= n - (k - taken.length); i++) yield* inOrder(n, k, i + 1, [...taken, i]);
}

/**
 * A template as a suggestion for `code`: its placeholders given the code's own numbers, the nearest
 * of the ways to, so that a typo elsewhere in the code does not change the number it reports: the
 * first run of digits for every one would take `sel3ctor-matched-5` to `selector-matched-3`, and
 * `retry-2-off-3` to `retry-2-of-2` (`retry-{n}-of-{n}`).
 */
function filled(template: string, code: string, runs: readonly string[]): string | undefined {
  const parts = template.split(placeholder);
  const slots = parts.length - 1;
  const ways: string[][] = runs.map((run) => Array<string>(slots).fill(run));
  if (runs.length === 0) ways.push(Array<string>(slots).fill('2'));
  if (slots > 1 && slots <= runs.length && binomial(runs.length, slots) <= maxFills) {
    for (const taken of inOrder(runs.length, slots)) ways.push(taken.map((i) => runs[i]!));
  }
  const wanted = normalizeName(code);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const numbers of ways) {
    const name = parts.reduce((text, part, i) => (i === 0 ? part : `${text}${numbers[i - 1]}${part}`), '');
    const distance = editDistance(wanted, normalizeName(name));
    if (distance < bestDistance) (best = name), (bestDistance = distance);
  }
  return bestDistance <= maxEdits ? best : undefined;
}

class CodeSet {
  private readonly exact = new Map<string, Set<string>>();
  // By template, in the order added: a Map, so that adding a code searches no list of the codes before it.
  private readonly patterns = new Map<string, CodePattern>();
  /**
   * The templates by their text before the first `{n}`, which a code they match starts with: a code
   * is tested against the templates of its own prefixes only, not every one (most of which are
   * regexes that cannot match).
   */
  private readonly byPrefix = new Map<string, CodePattern[]>();
  /** The lengths of those prefixes, each once. */
  private readonly prefixLengths: number[] = [];
  // A producer's typo repeats on every record it writes: suggest once per distinct code.
  private readonly suggestions = new Map<string, string | undefined>();
  private readonly misses = new Set<string>();
  private readonly matched = new Map<string, Set<string>>();
  /**
   * The last code asked about and its answer: two rules ask about a record's code in turn, with the
   * same string, and the second is spared a Map lookup. Cleared by add().
   */
  private lastCode: string | undefined;
  private lastCategories: ReadonlySet<string> | undefined;
  /** The exact codes and the templates as suggestion candidates, made on the first suggestion after the last add. */
  private tries: { exact: CandidateTrie; templates: CandidateTrie } | undefined;

  add(code: string, category: string): void {
    this.tries = undefined;
    this.lastCode = undefined;
    if (isPattern(code)) {
      let pattern = this.patterns.get(code);
      if (!pattern) {
        this.patterns.set(code, (pattern = { template: code, regex: patternRegex(code), categories: new Set(), order: this.patterns.size }));
        const prefix = code.slice(0, code.indexOf(placeholder));
        const bucket = this.byPrefix.get(prefix);
        if (bucket) bucket.push(pattern);
        else this.byPrefix.set(prefix, [pattern]);
        if (!this.prefixLengths.includes(prefix.length)) this.prefixLengths.push(prefix.length);
      }
      pattern.categories.add(category);
      return;
    }
    let categories = this.exact.get(code);
    if (!categories) this.exact.set(code, (categories = new Set()));
    categories.add(category);
  }

  /** The categories a code is listed under, or undefined for an unknown code. */
  categoriesOf(code: string): ReadonlySet<string> | undefined {
    if (code === this.lastCode) return this.lastCategories;
    const categories = this.lookUp(code);
    this.lastCode = code;
    this.lastCategories = categories;
    return categories;
  }

  private lookUp(code: string): ReadonlySet<string> | undefined {
    const known = this.matched.get(code);
    if (known) return known;
    if (this.misses.has(code)) return undefined;
    const exact = this.exact.get(code);
    // Listed as itself and matching a template, or matching two: each gives its categories (the
    // first alone would make 'retry-15' under timeout a mismatch when 'retry-1{n}' lists it there).
    const matching: CodePattern[] = [];
    for (const length of this.prefixLengths) {
      if (length > code.length) continue;
      const bucket = this.byPrefix.get(code.slice(0, length));
      if (bucket) for (const pattern of bucket) if (pattern.regex.test(code)) matching.push(pattern);
    }
    let union: Set<string> | undefined;
    for (const pattern of matching.sort((a, b) => a.order - b.order)) {
      union ??= new Set(exact);
      for (const category of pattern.categories) union.add(category);
    }
    const categories = union ?? exact;
    if (categories === undefined) {
      if (this.misses.size < maxRemembered) this.misses.add(code);
      return undefined;
    }
    // Remembered apart from the exact codes, which are the candidates for suggestions.
    if (this.matched.size < maxRemembered) this.matched.set(code, categories);
    return categories;
  }

  /** Each category's codes, exact ones in the order added, then its templates (`explain` lists them). */
  byCategory(): Map<string, string[]> {
    const listed = new Map<string, string[]>();
    const add = (code: string, categories: ReadonlySet<string>) => {
      for (const category of categories) listed.set(category, [...(listed.get(category) ?? []), code]);
    };
    for (const [code, categories] of this.exact) add(code, categories);
    for (const { template, categories } of this.patterns.values()) add(template, categories);
    return listed;
  }

  nearest(code: string): string | undefined {
    if (this.suggestions.has(code)) return this.suggestions.get(code);
    const { exact, templates } = (this.tries ??= { exact: new CandidateTrie(this.exact.keys()), templates: new CandidateTrie(this.patterns.keys(), placeholder) });
    // A template is found with each number of the code in turn (its search reads one number for
    // every placeholder), then given the numbers that bring it nearest.
    const runs = digitRuns(code);
    const found = new Set<string>();
    exact.search(normalizeName(code), '', (name) => found.add(name).size < 2);
    for (const number of new Set(runs.length > 0 ? runs : ['2'])) {
      if (found.size > 1) break;
      templates.search(normalizeName(code), number, (template) => {
        const name = filled(template, code, runs);
        if (name !== undefined) found.add(name);
        return found.size < 2;
      });
    }
    const suggestion = found.size === 1 ? found.values().next().value : undefined;
    if (this.suggestions.size < maxRemembered) this.suggestions.set(code, suggestion);
    return suggestion;
  }
}

/**
 * A codes file's members over the advice before it: each file replaces only what it gives. A
 * category with no advice yet starts unmarked, with none (load.ts refuses a file that leaves it so).
 */
function withRecovery(before: RecoveryAdvice | undefined, given: Partial<RecoveryAdvice>): RecoveryAdvice {
  return {
    advice: given.advice ?? before?.advice ?? '',
    noUnchangedRetry: given.noUnchangedRetry ?? before?.noUnchangedRetry ?? false,
    retryCodes: [...(given.retryCodes ?? before?.retryCodes ?? [])],
  };
}

export class CodeRegistry {
  private readonly errors = new CodeSet();
  private readonly warnings = new CodeSet();
  private readonly advice = new Map<string, RecoveryAdvice>(bundledCategories());

  constructor(files: readonly CodesFile[]) {
    for (const file of files) {
      for (const [category, codes] of Object.entries(file.errorCodes ?? {})) {
        for (const code of codes) this.errors.add(code, category);
      }
      for (const code of file.warningCodes ?? []) this.warnings.add(code, '');
      for (const [category, given] of Object.entries(file.recovery ?? {})) this.advice.set(category, withRecovery(this.advice.get(category), given));
    }
  }

  isKnownErrorCode(code: string): boolean {
    return this.errors.categoriesOf(code) !== undefined;
  }

  errorCodeCategories(code: string): ReadonlySet<string> | undefined {
    return this.errors.categoriesOf(code);
  }

  isKnownWarningCode(code: string): boolean {
    return this.warnings.categoriesOf(code) !== undefined;
  }

  nearestErrorCode(code: string): string | undefined {
    return this.errors.nearest(code);
  }

  nearestWarningCode(code: string): string | undefined {
    return this.warnings.nearest(code);
  }

  /** The known error codes by category (templates with `{n}`), in the order the files list them. */
  errorCodesByCategory(): ReadonlyMap<string, readonly string[]> {
    return this.errors.byCategory();
  }

  /** The known warning codes, in the order the files list them. */
  warningCodes(): readonly string[] {
    return this.warnings.byCategory().get('') ?? [];
  }

  /** A category's recovery advice (spec section 9), when the bundled data or a codes file gives it. */
  recovery(category: string): RecoveryAdvice | undefined {
    return this.advice.get(category);
  }
}

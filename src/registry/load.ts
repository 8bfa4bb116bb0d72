// The bundled registry (data/codes.json) merged with the user's `--codes` files. A user's file is
// validated against data/codes.schema.json so that a mistake names the file and the place in it;
// the bundled one is the package's own data, checked by the test suite instead of at every start.
import { bundledCodesPath } from '../assets.js';
import { childPointer, isKebabCase } from '../checks/envelope.js';
import { bundledVersionCategories } from '../checks/schema-load.js';
import { UsageError } from '../errors.js';
import { readJsonFile, readValidatedJsonFile } from '../load-json.js';
import { nearestName } from './nearest.js';
import { bundledCategories } from './recovery.js';
import { CodeRegistry, type CodesFile } from './registry.js';

export function readCodesFile(path: string): CodesFile {
  return readValidatedJsonFile<CodesFile>(path, 'codes file', 'data/codes.schema.json', (pointer) =>
    pointer.startsWith('/recovery')
      ? 'expected "recovery": {"<category>": {"advice": "...", "noUnchangedRetry": true|false, "retryCodes": ["code", ...]}}, each member optional'
      : 'expected {"errorCodes": {"<category>": ["code", ...]}, "warningCodes": ["code", ...]}',
  );
}

/**
 * A category the schema does not have (`"timout"`) is a usage error naming the file: kept, it would
 * make every code under it a code-category-mismatch ("belongs to timout, not \"timeout\""),
 * blaming the records for the file's typo, and its recovery advice would never apply.
 */
function assertCategories(file: CodesFile, path: string, categories: readonly string[]): void {
  const named = [...Object.keys(file.errorCodes ?? {}).map((category) => ['/errorCodes', category]), ...Object.keys(file.recovery ?? {}).map((category) => ['/recovery', category])];
  for (const [member, category] of named as [string, string][]) {
    if (categories.includes(category)) continue;
    const near = nearestName(category, categories);
    const hint = near === undefined ? ` (${categories.join(', ')}): ${member === '/recovery' ? "advice for another schema's categories needs" : "codes of another schema's categories need"} that schema (--schema)` : `: did you mean ${JSON.stringify(near)}?`;
    throw new UsageError(`codes file ${path} at ${childPointer(member, category)}: ${JSON.stringify(category)} is not a category of the schema, nor of a newer MCEC release${hint}`);
  }
}

/**
 * A category no advice is known for (a team schema's own) needs its advice from the first file that
 * gives it any member: unchanged-retry's message and `explain` quote it (spec section 9).
 */
function assertAdvised(file: CodesFile, path: string, advised: Set<string>): void {
  for (const [category, given] of Object.entries(file.recovery ?? {})) {
    if (given.advice === undefined && !advised.has(category)) {
      throw new UsageError(`codes file ${path} at ${childPointer('/recovery', category)}: mcec-result has no advice for ${JSON.stringify(category)}: give its "advice" too`);
    }
    advised.add(category);
  }
}

/** The kebab-case spelling of a code (`Foo_Bar`, `fooBar` -> `foo-bar`), when there is one. */
function kebabOf(code: string): string | undefined {
  const kebab = code
    // über-code -> uber-code, not ber-code: accents dropped, not the letters they sit on.
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9{}]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return isKebabCase(kebab.replaceAll('{n}', '0')) ? kebab : undefined;
}

/**
 * Codes a file lists that no record's code can ever be, which would leave those codes unknown
 * without a word: `{n}` stands for the whole run of digits, so `{n}{n}` (the second has no digit
 * left) and `{n}0` match nothing; and a code that is not kebab-case is outside the registry (spec section
 * 6), so listing `Foo_Bar` must not make `Foo_Bar` in a record known, even under --strict-codes.
 */
function assertCodes(file: CodesFile, path: string): void {
  const lists = Object.entries(file.errorCodes ?? {}).map(([category, codes]): [string, readonly string[]] => [childPointer('/errorCodes', category), codes]);
  lists.push(['/warningCodes', file.warningCodes ?? []]);
  for (const [at, codes] of lists) {
    codes.forEach((code, index) => {
      const place = `codes file ${path} at ${at}/${index}: ${JSON.stringify(code)}`;
      if (code.includes('{n}{n}')) throw new UsageError(`${place} has two {n} side by side, which no code matches: one {n} is the whole number`);
      // `focus-lost-{n}0`: {n} takes every digit, so none is left for the 0.
      if (/\{n\}\d/.test(code)) throw new UsageError(`${place} has a digit right after {n}, which no code matches: {n} is the whole number, its digits included`);
      if (isKebabCase(code.replaceAll('{n}', '0'))) return;
      const kebab = kebabOf(code);
      throw new UsageError(`${place} is not kebab-case, and a code that is not is never a known one (lower-case letters and digits between single hyphens, {n} for a number)${kebab === undefined ? '' : `: did you mean ${JSON.stringify(kebab)}?`}`);
    });
  }
}

/** `categories`: the schema's category set, which each `--codes` file's categories must be in (when it has one). */
export function loadRegistry(extraFiles: readonly string[] = [], categories: readonly string[] = []): CodeRegistry {
  const bundled = readJsonFile(bundledCodesPath(), 'codes file') as CodesFile;
  const files = [bundled];
  // The bundled registry lists codes under the categories of every bundled schema version
  // (ocr-blank, ocr-no-text are 2026-07's), whichever is in use; a team's file in the same format
  // may too (spec sections 7, 8.3 and 9). Read only when there is a file to hold to them.
  const allowed = categories.length === 0 || extraFiles.length === 0 ? [] : [...new Set([...categories, ...bundledVersionCategories()])];
  const advised = new Set(bundledCategories().keys());
  for (const path of extraFiles) {
    const file = readCodesFile(path);
    assertCodes(file, path);
    if (allowed.length > 0) assertCategories(file, path, allowed);
    assertAdvised(file, path, advised);
    files.push(file);
  }
  return new CodeRegistry(files);
}

// The bundled registry (data/codes.json) merged with the user's `--codes` files. A user's file is
// validated against data/codes.schema.json so that a mistake names the file and the place in it;
// the bundled one is the package's own data, checked by the test suite instead of at every start.
import { bundledCodesPath } from '../assets.js';
import { childPointer } from '../checks/envelope.js';
import { UsageError } from '../errors.js';
import { readJsonFile, readValidatedJsonFile } from '../load-json.js';
import { nearestName } from './nearest.js';
import { CodeRegistry, type CodesFile } from './registry.js';

export function readCodesFile(path: string): CodesFile {
  return readValidatedJsonFile<CodesFile>(path, 'codes file', 'data/codes.schema.json', 'expected {"errorCodes": {"<category>": ["code", ...]}, "warningCodes": ["code", ...]}');
}

/**
 * A category the schema does not have (`"timout"`) made every code under it a code-category-mismatch
 * ("belongs to timout, not \"timeout\""), blaming the records for the file's typo.
 */
function assertCategories(file: CodesFile, path: string, categories: readonly string[]): void {
  for (const category of Object.keys(file.errorCodes ?? {})) {
    if (categories.includes(category)) continue;
    const near = nearestName(category, categories);
    const hint = near === undefined ? ` (${categories.join(', ')}): codes of another schema's categories need that schema (--schema)` : `: did you mean ${JSON.stringify(near)}?`;
    throw new UsageError(`codes file ${path} at ${childPointer('/errorCodes', category)}: ${JSON.stringify(category)} is not a category of the schema${hint}`);
  }
}

/**
 * `{n}` stands for the whole run of digits, so `{n}{n}` (the second has no digit left) matches no
 * code at all: a codes file with one would leave those codes unknown, without a word.
 */
function assertPatterns(file: CodesFile, path: string): void {
  const lists = Object.entries(file.errorCodes ?? {}).map(([category, codes]): [string, readonly string[]] => [childPointer('/errorCodes', category), codes]);
  lists.push(['/warningCodes', file.warningCodes ?? []]);
  for (const [at, codes] of lists) {
    const index = codes.findIndex((code) => code.includes('{n}{n}'));
    if (index !== -1) throw new UsageError(`codes file ${path} at ${at}/${index}: ${JSON.stringify(codes[index])} has two {n} side by side, which no code matches: one {n} is the whole number`);
  }
}

/** `categories`: the schema's category set, which each `--codes` file's categories must be in (when it has one). */
export function loadRegistry(extraFiles: readonly string[] = [], categories: readonly string[] = []): CodeRegistry {
  const files = [readJsonFile(bundledCodesPath(), 'codes file') as CodesFile];
  for (const path of extraFiles) {
    const file = readCodesFile(path);
    assertPatterns(file, path);
    if (categories.length > 0) assertCategories(file, path, categories);
    files.push(file);
  }
  return new CodeRegistry(files);
}

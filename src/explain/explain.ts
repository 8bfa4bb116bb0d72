// `mcec-result explain <name>`: what a category, an error or warning code, or a rule means; with no
// name, a list of them all. The knowledge is data: data/categories.json (when a category applies,
// and its recovery advice, spec section 9) with the codes files' advice over it, the code registry,
// and the rules' definitions, each with a triggering example. A name may be several things at once
// (`capture-blank` is a category and a warning code); every meaning is shown.
import { bundledCategories, type CategoryData, type RecoveryAdvice } from '../registry/recovery.js';
import { isRuleId, ruleCatalog, ruleDefinition, ruleIds } from '../checks/catalog.js';
import { quote } from '../checks/envelope.js';
import { UsageError } from '../errors.js';
import { didYouMean, nearestName } from '../registry/nearest.js';
import type { CodeRegistry } from '../registry/registry.js';
import type { RuleId } from '../types.js';
import { categoriesOfVersion } from '../checks/schema-load.js';
import { bundledSchemaVersions, isSchemaVersionChoice, latestSchemaVersion } from '../checks/schema-versions.js';

/** The name `explain` lists the bundled schema versions under. */
const schemaVersionsName = 'schema-versions';

export type CategoryInfo = CategoryData;

/** The categories of data/categories.json, in the spec's order. */
export const categoryInfo = bundledCategories;

/** Two columns: labels padded to the widest, continuation lines of a value indented under it. */
function table(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.flatMap(([label, value]) =>
    value.split('\n').map((text, i) => `  ${(i === 0 ? label : '').padEnd(width)}  ${text}`.trimEnd()),
  );
}

/** The bundled versions whose schema lists `category`, oldest first. */
const versionsListing = (category: string): string[] => bundledSchemaVersions.map(({ name }) => name).filter((name) => categoriesOfVersion(name).includes(category));

/** The schema in use by name: its version (`2026-07`), or its file. */
const inUse = (schema: SchemaCategories): string => schema.version ?? schema.source;

/**
 * What an agent should do after a failure of the category, and whether an unchanged retry goes
 * against it (spec section 9): the bundled data with the codes files' members over it.
 */
function recoveryRows(advice: RecoveryAdvice | undefined): [string, string][] {
  if (advice === undefined) return [];
  const rows: [string, string][] = [
    ['advice', advice.advice],
    ['unchanged retry', advice.noUnchangedRetry ? 'goes against the advice (rule unchanged-retry)' : 'allowed'],
  ];
  // Retry codes are the mark's exceptions: shown for a marked category, and said to do nothing on an unmarked one a codes file gave them to.
  if (advice.noUnchangedRetry || advice.retryCodes.length > 0) {
    const after = advice.noUnchangedRetry ? '(after one of these an unchanged retry is allowed)' : '(no effect: an unchanged retry is allowed after any code)';
    rows.push(['retry codes', advice.retryCodes.length === 0 ? 'none: an unchanged retry after any code goes against the advice' : `${wrapList(advice.retryCodes)}\n${after}`]);
  }
  return rows;
}

/** A list of names as lines of at most `width` characters, parted between names. */
function wrapList(names: readonly string[], width = 72): string {
  const lines: string[] = [];
  for (const name of names) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + name.length + 2 <= width) lines[lines.length - 1] = `${last}, ${name}`;
    else {
      if (last !== undefined) lines[lines.length - 1] = `${last},`;
      lines.push(name);
    }
  }
  return lines.join('\n');
}

function explainCategory(name: string, info: CategoryInfo, schema: SchemaCategories | undefined, registry: CodeRegistry): string[] {
  // A category not every bundled version has (spec section 8.3) says which have it, and whether the
  // schema in use does, so that a user already checking with such a schema is not sent off to find one.
  const versions = versionsListing(name);
  const listed = schema === undefined || schema.categories.length === 0 || schema.categories.includes(name);
  let note = '';
  if (versions.length < bundledSchemaVersions.length) {
    const since = versions.length === 0 ? 'in no bundled schema version' : versions.length === 1 ? `schema version ${versions[0]}` : `schema versions ${versions.join(', ')}`;
    const where = schema === undefined ? '' : `; the schema in use, ${inUse(schema)}, ${listed ? 'lists it' : `does not: check with --schema-version ${versions.at(-1) ?? latestSchemaVersion}`}`;
    note = ` (${since}${where})`;
  }
  return [`${name}: an error category${note}`, ...table([['when', info.when], ...recoveryRows(registry.recovery(name))])];
}

/** `explain schema-versions` (or a version's name): the bundled versions and what each adds to the one before. */
function explainSchemaVersions(schema: SchemaCategories | undefined): string[] {
  const rows = bundledSchemaVersions.map(({ name, file }, i): [string, string] => {
    const categories = categoriesOfVersion(name);
    const before = i === 0 ? undefined : categoriesOfVersion(bundledSchemaVersions[i - 1]!.name);
    const added = before === undefined ? [] : categories.filter((category) => !before.includes(category));
    const removed = before === undefined ? [] : before.filter((category) => !categories.includes(category));
    const what = before === undefined ? `${categories.length} categories` : [added.length > 0 && `adds categories ${added.join(', ')}`, removed.length > 0 && `drops categories ${removed.join(', ')}`].filter(Boolean).join('; ') || 'the same categories';
    return [name, `${what} (${file})${schema?.version === name ? ', in use' : ''}`];
  });
  rows.push(['latest', `${latestSchemaVersion}, the newest bundled: the default`]);
  return ['schema-versions: the envelope schemas mcec-result bundles, chosen with --schema-version <name> (or the config\'s schemaVersion)', ...table(rows)];
}

function explainErrorCode(name: string, codeCategories: ReadonlySet<string>, schema: SchemaCategories | undefined): string[] {
  const listed = [...codeCategories];
  const under = listed.length === 1 ? 'listed under one category' : `listed under ${listed.length} categories`;
  // A codes file lists codes under the schema's categories only: one not described here is the schema's own.
  const rows = listed.map((category): [string, string] => [category, categoryInfo().get(category)?.when ?? `(a category of the schema ${schema?.source ?? ''})`]);
  return [`${name}: an error code, ${under}`, ...table(rows), `  (mcec-result explain <category> tells what an agent should do)`];
}

function explainWarningCode(name: string): string[] {
  return [`${name}: a warning code`, '  a known warnings[].code; warnings are allowed on success and on failure'];
}

function explainRule(id: RuleId): string[] {
  const rule = ruleDefinition(id);
  const example = rule.example;
  return [
    `${id}: a rule, default severity ${rule.defaultSeverity}`,
    ...table([
      ['checks', rule.description],
      ['example', example === '' ? '(an input with no record: an empty file)' : example],
      ['setting', `--rule ${id}=off|warning|error`],
    ]),
  ];
}

/** A category only a `--schema` lists (a team's, or a newer MCEC's): what is known of it, and where to look. */
function explainSchemaCategory(name: string, schema: SchemaCategories, registry: CodeRegistry): string[] {
  const advice = recoveryRows(registry.recovery(name));
  return [`${name}: an error category of the schema ${schema.source}`, "  mcec-result ships no description of it: the schema's own documentation says when it applies", ...(advice.length > 0 ? table(advice) : [])];
}

/** The categories of the envelope schema `explain` was given (`--schema`, or the config's). */
export interface SchemaCategories {
  source: string;
  categories: readonly string[];
  /** The bundled version, when the schema is one. */
  version?: string;
}

function unknownName(name: string, registry: CodeRegistry, schema?: SchemaCategories): UsageError {
  const codes = [registry.nearestErrorCode(name), registry.nearestWarningCode(name)].filter((code) => code !== undefined);
  const suggestion = nearestName(name, [...categoryInfo().keys(), ...(schema?.categories ?? []), ...codes, ...ruleIds, schemaVersionsName]);
  if (suggestion !== undefined) return new UsageError(`unknown name ${quote(name)}${didYouMean(suggestion)}`);
  return new UsageError(
    `unknown name ${quote(name)}: name an error category (timeout, no-target, ...), an error or warning code (window-not-found, minimized-window, ...) or a rule (schema, missing-result, ...)`,
  );
}

/** Rows of a listing, each a heading's lines indented under it. */
const listing = (heading: string, rows: readonly [string, string][]): string[] => [heading, ...table(rows)];

/**
 * `explain` with no name: every name it knows, one line each (spec section 4): the rules, the
 * categories with their advice, the known codes by category (the codes files' too) and the
 * bundled schema versions.
 */
function explainAll(registry: CodeRegistry, schema: SchemaCategories | undefined): string[][] {
  const rules = ruleIds.map((id): [string, string] => [id, `${ruleCatalog[id].defaultSeverity.padEnd(7)}  ${ruleCatalog[id].description}`]);
  const bundled = [...categoryInfo().keys()];
  const categories = [...bundled, ...(schema?.categories ?? []).filter((category) => !bundled.includes(category))];
  const newer = (category: string): string => {
    const versions = versionsListing(category);
    if (!bundled.includes(category)) return `(the schema ${schema?.source ?? ''}'s) `;
    return versions.length < bundledSchemaVersions.length ? `(${versions.length === 0 ? 'no bundled version' : versions.join(', ')}) ` : '';
  };
  const advice = categories.map((category): [string, string] => [category, `${newer(category)}${registry.recovery(category)?.advice ?? 'no advice known'}`]);
  const codes = [...registry.errorCodesByCategory()].sort(([a], [b]) => categoryOrder(categories, a) - categoryOrder(categories, b));
  const versions = explainSchemaVersions(schema).slice(1);
  return [
    ['mcec-result explain <name> tells more of any name below.'],
    listing('rules (id, default severity, what it reports; --rule <id>=off|warning|error):', rules),
    listing('categories (error.category, and what an agent should do after a failure):', advice),
    listing('error codes by category ({n} is a whole number):', codes.map(([category, list]): [string, string] => [category, wrapList(list)])),
    ['warning codes (warnings[].code):', ...wrapList(registry.warningCodes()).split('\n').map((line) => `  ${line}`)],
    ['schema versions (--schema-version <name>):', ...versions],
  ];
}

/** A category's place in the listing: the bundled order, then the schema's; any other after them, as the files list it. */
function categoryOrder(categories: readonly string[], category: string): number {
  const at = categories.indexOf(category);
  return at === -1 ? categories.length : at;
}

/**
 * The text `explain <name>` prints: every meaning of `name`, or a UsageError naming the nearest
 * name; with no name, every name it knows.
 */
export function explain(name: string | undefined, registry: CodeRegistry, schema?: SchemaCategories): string {
  if (name === undefined) return explainAll(registry, schema).map((lines) => lines.join('\n')).join('\n\n') + '\n';
  const sections: string[][] = [];
  const category = categoryInfo().get(name);
  if (category) sections.push(explainCategory(name, category, schema, registry));
  else if (schema?.categories.includes(name)) sections.push(explainSchemaCategory(name, schema, registry));
  const codeCategories = registry.errorCodeCategories(name);
  if (codeCategories) sections.push(explainErrorCode(name, codeCategories, schema));
  if (registry.isKnownWarningCode(name)) sections.push(explainWarningCode(name));
  if (isRuleId(name)) sections.push(explainRule(name));
  if (name === schemaVersionsName || isSchemaVersionChoice(name)) sections.push(explainSchemaVersions(schema));
  if (sections.length === 0) throw unknownName(name, registry, schema);
  return sections.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

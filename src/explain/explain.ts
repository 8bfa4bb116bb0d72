// `mcec-result explain <name>`: what a category, an error or warning code, or a rule means. The
// knowledge is data: data/categories.json (spec section 2's first table), the code registry, and
// the rule catalog with one triggering example per rule. A name may be several things at once
// (`capture-blank` is a category and a warning code); every meaning is shown.
import { readJsonAsset } from '../assets.js';
import { isRuleId, ruleCatalog, ruleIds } from '../checks/catalog.js';
import { quote } from '../checks/envelope.js';
import { UsageError } from '../errors.js';
import { didYouMean, nearestName } from '../registry/nearest.js';
import type { CodeRegistry } from '../registry/registry.js';
import type { RuleId } from '../types.js';
import { ruleExamples } from './examples.js';

export interface CategoryInfo {
  when: string;
  recovery: string;
  /** Added by newer MCEC releases; the bundled schema does not list it. */
  newer?: boolean;
}

let categories: ReadonlyMap<string, CategoryInfo> | undefined;

function isCategoryInfo(value: unknown): value is CategoryInfo {
  if (typeof value !== 'object' || value === null) return false;
  const info = value as Record<string, unknown>;
  return typeof info['when'] === 'string' && typeof info['recovery'] === 'string';
}

/** The categories of data/categories.json, in the spec's order. */
export function categoryInfo(): ReadonlyMap<string, CategoryInfo> {
  if (categories) return categories;
  const data = readJsonAsset('data/categories.json') as { categories?: Record<string, unknown> };
  const entries = Object.entries(data.categories ?? {});
  for (const [name, info] of entries) {
    if (!isCategoryInfo(info)) throw new Error(`data/categories.json: ${name} needs "when" and "recovery" strings`);
  }
  categories = new Map(entries as [string, CategoryInfo][]);
  return categories;
}

/** Two columns: labels padded to the widest, continuation lines of a value indented under it. */
function table(rows: readonly [string, string][]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows.flatMap(([label, value]) =>
    value.split('\n').map((text, i) => `  ${(i === 0 ? label : '').padEnd(width)}  ${text}`.trimEnd()),
  );
}

function explainCategory(name: string, info: CategoryInfo, schema: SchemaCategories | undefined): string[] {
  // Sent a user already checking with such a schema off to find one.
  const listed = schema?.categories.includes(name) === true;
  const note = !info.newer ? '' : listed ? ` (newer MCEC releases; the schema ${schema!.source} lists it)` : ' (newer MCEC releases; check with a --schema that lists it)';
  return [`${name}: an error category${note}`, ...table([['when', info.when], ['recovery', info.recovery]])];
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
  const rule = ruleCatalog[id];
  const example: string = ruleExamples[id];
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
function explainSchemaCategory(name: string, schema: SchemaCategories): string[] {
  return [`${name}: an error category of the schema ${schema.source}`, "  mcec-result ships no description of it: the schema's own documentation says when it applies"];
}

/** The categories of the envelope schema `explain` was given (`--schema`, or the config's). */
export interface SchemaCategories {
  source: string;
  categories: readonly string[];
}

function unknownName(name: string, registry: CodeRegistry, schema?: SchemaCategories): UsageError {
  const codes = [registry.nearestErrorCode(name), registry.nearestWarningCode(name)].filter((code) => code !== undefined);
  const suggestion = nearestName(name, [...categoryInfo().keys(), ...(schema?.categories ?? []), ...codes, ...ruleIds]);
  if (suggestion !== undefined) return new UsageError(`unknown name ${quote(name)}${didYouMean(suggestion)}`);
  return new UsageError(
    `unknown name ${quote(name)}: name an error category (timeout, no-target, ...), an error or warning code (window-not-found, minimized-window, ...) or a rule (schema, missing-result, ...)`,
  );
}

/** The text `explain <name>` prints: every meaning of `name`, or a UsageError naming the nearest name. */
export function explain(name: string, registry: CodeRegistry, schema?: SchemaCategories): string {
  const sections: string[][] = [];
  const category = categoryInfo().get(name);
  if (category) sections.push(explainCategory(name, category, schema));
  else if (schema?.categories.includes(name)) sections.push(explainSchemaCategory(name, schema));
  const codeCategories = registry.errorCodeCategories(name);
  if (codeCategories) sections.push(explainErrorCode(name, codeCategories, schema));
  if (registry.isKnownWarningCode(name)) sections.push(explainWarningCode(name));
  if (isRuleId(name)) sections.push(explainRule(name));
  if (sections.length === 0) throw unknownName(name, registry, schema);
  return sections.map((lines) => lines.join('\n')).join('\n\n') + '\n';
}

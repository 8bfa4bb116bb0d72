// The rules as the rest of the tool looks them up: by id, and the envelope rules in the order they
// run. Each rule is defined once, in `rules/<id>.ts`; `rules/index.ts` lists them.
import { didYouMean, nearestName } from '../registry/nearest.js';
import type { RuleId, RuleInfo } from '../types.js';
import { codeCategoryMismatch } from './rules/code-category-mismatch.js';
import { codeFormat } from './rules/code-format.js';
import { rules } from './rules/index.js';
import { inlineImage } from './rules/inline-image.js';
import { missingResult } from './rules/missing-result.js';
import { resultOnFailure } from './rules/result-on-failure.js';
import type { EnvelopeRule, RuleDefinition } from './rules/rule.js';
import { unknownCode } from './rules/unknown-code.js';
import { unknownWarningCode } from './rules/unknown-warning-code.js';

/** Checked on every envelope, in this order. */
export const envelopeRules: readonly EnvelopeRule<RuleId>[] = [
  resultOnFailure,
  missingResult,
  unknownCode,
  unknownWarningCode,
  codeCategoryMismatch,
  codeFormat,
  inlineImage,
];

const definitions = new Map<RuleId, RuleDefinition<RuleId>>(rules.map((rule) => [rule.id, rule]));

/** A rule's whole definition: its example and docs page besides what the catalog holds. */
export function ruleDefinition(id: RuleId): RuleDefinition<RuleId> {
  return definitions.get(id)!;
}

/**
 * Exported, and read by every run of the process: frozen, so that a library caller who edits an
 * entry (or the list) cannot change later runs' severities, SARIF rules or --rule checks.
 */
export const ruleCatalog: Readonly<Record<RuleId, Readonly<RuleInfo>>> = Object.freeze(
  Object.fromEntries(rules.map(({ id, defaultSeverity, description }) => [id, Object.freeze({ id, defaultSeverity, description })])) as Record<RuleId, RuleInfo>,
);

export const ruleIds: readonly RuleId[] = Object.freeze(rules.map((rule) => rule.id));

export function isRuleId(name: string): name is RuleId {
  return Object.hasOwn(ruleCatalog, name);
}

/** `"schma" (did you mean "schema"?)`, or every rule id when none is near: for --rule, config files and library options. */
export function unknownRule(id: string): string {
  const near = nearestName(id, ruleIds);
  return `${JSON.stringify(id)}${didYouMean(near, ` (rules: ${ruleIds.join(', ')})`)}`;
}

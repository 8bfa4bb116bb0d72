// Every rule of spec section 5, with its default severity and one-line description. The envelope
// rules carry their own check; the others are produced by the stage named beside them.
import { didYouMean, nearestName } from '../registry/nearest.js';
import type { RuleId, RuleInfo } from '../types.js';
import { codeCategoryMismatch } from './rules/code-category-mismatch.js';
import { codeFormat } from './rules/code-format.js';
import { inlineImage } from './rules/inline-image.js';
import { missingResult } from './rules/missing-result.js';
import { resultOnFailure } from './rules/result-on-failure.js';
import type { EnvelopeRule } from './rules/rule.js';
import { unknownCode } from './rules/unknown-code.js';
import { unknownWarningCode } from './rules/unknown-warning-code.js';
import { schemaRule } from './schema.js';

/** Checked on every envelope, in this order. */
export const envelopeRules: readonly EnvelopeRule[] = [
  resultOnFailure,
  missingResult,
  unknownCode,
  unknownWarningCode,
  codeCategoryMismatch,
  codeFormat,
  inlineImage,
];

function info(rule: RuleInfo): RuleInfo {
  return { id: rule.id, defaultSeverity: rule.defaultSeverity, description: rule.description };
}

/**
 * Exported, and read by every run of the process: frozen, so that a library caller who edits an
 * entry (or the list) cannot change later runs' severities, SARIF rules or --rule checks.
 */
function frozen<T extends Record<RuleId, RuleInfo>>(catalog: T): Readonly<T> {
  for (const entry of Object.values(catalog)) Object.freeze(entry);
  return Object.freeze(catalog);
}

export const ruleCatalog = frozen({
  // framing/
  'parse-error': { id: 'parse-error', defaultSeverity: 'error', description: 'a record that is not valid JSON, not UTF-8, or over the line-size limit' },
  // checks/schema.ts
  schema: info(schemaRule),
  'result-on-failure': info(resultOnFailure),
  // unwrap/ (MCP)
  'is-error-mismatch': { id: 'is-error-mismatch', defaultSeverity: 'error', description: 'the MCP isError flag does not equal !ok' },
  'not-an-envelope': { id: 'not-an-envelope', defaultSeverity: 'error', description: 'a tool response whose content holds no JSON envelope, or an object with none of the envelope members ok, result, error, warnings' },
  'unknown-code': info(unknownCode),
  'unknown-warning-code': info(unknownWarningCode),
  'code-category-mismatch': info(codeCategoryMismatch),
  'code-format': info(codeFormat),
  'missing-result': info(missingResult),
  'inline-image': info(inlineImage),
  // unwrap/ (transcripts)
  'transcript-truncated': { id: 'transcript-truncated', defaultSeverity: 'warning', description: "a transcript's truncation marker: the log was cut off there by its size cap" },
  'unpaired-response': { id: 'unpaired-response', defaultSeverity: 'warning', description: 'a transcript response with no request of the same id before it, once the input has held a request' },
  'unanswered-request': { id: 'unanswered-request', defaultSeverity: 'warning', description: 'a transcript request that no response answers' },
  'duplicate-response': { id: 'duplicate-response', defaultSeverity: 'error', description: 'a second response to a JSON-RPC id whose request an earlier response answered' },
  'structured-content-mismatch': { id: 'structured-content-mismatch', defaultSeverity: 'error', description: "structuredContent and the text block's envelope differ" },
  // run.ts
  'empty-input': { id: 'empty-input', defaultSeverity: 'warning', description: 'an input that holds no record at all' },
  'no-tool-results': { id: 'no-tool-results', defaultSeverity: 'warning', description: 'an input whose entries are all skipped (requests, other methods, noise): no tool result to check' },
  // bundle-checks.ts (spec section 8.2)
  'bundle-session-mismatch': { id: 'bundle-session-mismatch', defaultSeverity: 'error', description: "an evidence bundle's session.json names another session than its transcript" },
  'bundle-truncation-mismatch': { id: 'bundle-truncation-mismatch', defaultSeverity: 'warning', description: "session.json's toolCallLogTruncated disagrees with the transcript's end" },
} as const satisfies Record<RuleId, RuleInfo>);

export const ruleIds: readonly RuleId[] = Object.freeze(Object.keys(ruleCatalog) as RuleId[]);

export function isRuleId(name: string): name is RuleId {
  return Object.hasOwn(ruleCatalog, name);
}

/** `"schma" (did you mean "schema"?)`, or every rule id when none is near: for --rule, config files and library options. */
export function unknownRule(id: string): string {
  const near = nearestName(id, ruleIds);
  return `${JSON.stringify(id)}${didYouMean(near, ` (rules: ${ruleIds.join(', ')})`)}`;
}

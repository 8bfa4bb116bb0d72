// The severity each rule runs at: its default, then --strict-codes, then explicit --rule settings
// (spec section 7: an explicit --rule wins over --strict-codes).
import type { RuleId, RuleSetting } from '../types.js';
import { ruleCatalog, ruleIds } from './catalog.js';

export type Severities = Readonly<Record<RuleId, RuleSetting>>;

export const ruleSettings: readonly RuleSetting[] = ['off', 'warning', 'error'];

export interface SeverityOptions {
  strictCodes?: boolean;
  rules?: Partial<Record<RuleId, RuleSetting>>;
}

export function resolveSeverities(options: SeverityOptions = {}): Severities {
  const severities = {} as Record<RuleId, RuleSetting>;
  for (const id of ruleIds) severities[id] = ruleCatalog[id].defaultSeverity;
  if (options.strictCodes) {
    severities['unknown-code'] = 'error';
    severities['unknown-warning-code'] = 'error';
  }
  return Object.assign(severities, options.rules);
}

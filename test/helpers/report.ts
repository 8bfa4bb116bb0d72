// A hand-built summary for formatter tests: the numbers every format's tests start from.
import type { Summary } from '../../src/types.js';

export function sampleSummary(overrides: Partial<Summary> = {}): Summary {
  return {
    inputs: 2,
    records: 12,
    valid: 10,
    invalid: 2,
    unparseable: 1,
    skipped: 0,
    errors: 3,
    warnings: 1,
    protocolErrors: 0,
    truncated: 0,
    outcomes: { ok: 3, failed: 9, unknown: 0 },
    categories: { timeout: 3, 'no-target': 6, focus: 0 },
    invalidCategories: { no_target: 1 },
    codes: { 'window-not-found': 6, 'wait-condition-timeout': 3, 'window-not-fonud': 1 },
    unknownCodes: { 'window-not-fonud': 1 },
    warningCodes: {},
    unknownWarningCodes: {},
    ...overrides,
  };
}

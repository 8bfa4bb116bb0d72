import { childPointer, stringMember, warningObjects } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

export const unknownWarningCode: EnvelopeRule = {
  id: 'unknown-warning-code',
  defaultSeverity: 'warning',
  description: 'warnings[].code is not in the code registry (with the nearest known code when one is close)',
  check(envelope, { registry }, report) {
    for (const [index, warning] of warningObjects(envelope)) {
      const code = stringMember(warning, 'code');
      if (code === undefined || registry.isKnownWarningCode(code)) continue;
      const suggestion = registry.nearestWarningCode(code);
      report({
        message: `unknown warning code ${JSON.stringify(code)}`,
        pointer: childPointer(childPointer('/warnings', index), 'code'),
        ...(suggestion && { suggestion }),
      });
    }
  },
};

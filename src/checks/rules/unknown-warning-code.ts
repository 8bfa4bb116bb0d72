import { childPointer, isObject, stringMember } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

export const unknownWarningCode: EnvelopeRule = {
  id: 'unknown-warning-code',
  defaultSeverity: 'warning',
  description: 'warnings[].code is not in the code registry (with the nearest known code when one is close)',
  check({ warnings }, { registry }, out) {
    for (let index = 0; index < warnings.length; index++) {
      const warning = warnings[index];
      if (!isObject(warning)) continue;
      const code = stringMember(warning, 'code');
      if (code === undefined || registry.isKnownWarningCode(code)) continue;
      const suggestion = registry.nearestWarningCode(code);
      out.push({
        message: `unknown warning code ${JSON.stringify(code)}`,
        pointer: childPointer(childPointer('/warnings', index), 'code'),
        ...(suggestion && { suggestion }),
      });
    }
  },
};

import { childPointer, errorObject, isKebabCase, stringMember, warningObjects } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

export const codeFormat: EnvelopeRule = {
  id: 'code-format',
  defaultSeverity: 'warning',
  description: 'an error or warning code that is not kebab-case',
  check(envelope, _context, report) {
    const error = errorObject(envelope);
    const code = error && stringMember(error, 'code');
    if (code !== undefined && !isKebabCase(code)) {
      report({ message: `error code ${JSON.stringify(code)} is not kebab-case`, pointer: '/error/code' });
    }
    for (const [index, warning] of warningObjects(envelope)) {
      const warningCode = stringMember(warning, 'code');
      if (warningCode === undefined || isKebabCase(warningCode)) continue;
      report({
        message: `warning code ${JSON.stringify(warningCode)} is not kebab-case`,
        pointer: childPointer(childPointer('/warnings', index), 'code'),
      });
    }
  },
};

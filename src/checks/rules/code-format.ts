import { childPointer, isKebabCase, isObject, stringMember } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

export const codeFormat: EnvelopeRule = {
  id: 'code-format',
  defaultSeverity: 'warning',
  description: 'an error or warning code that is not kebab-case',
  check({ code, warnings }, _context, out) {
    if (code !== undefined && !isKebabCase(code)) {
      out.push({ message: `error code ${JSON.stringify(code)} is not kebab-case`, pointer: '/error/code' });
    }
    for (let index = 0; index < warnings.length; index++) {
      const warning = warnings[index];
      if (!isObject(warning)) continue;
      const warningCode = stringMember(warning, 'code');
      if (warningCode === undefined || isKebabCase(warningCode)) continue;
      out.push({
        message: `warning code ${JSON.stringify(warningCode)} is not kebab-case`,
        pointer: childPointer(childPointer('/warnings', index), 'code'),
      });
    }
  },
};

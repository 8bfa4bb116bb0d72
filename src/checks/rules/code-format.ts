import { childPointer, isKebabCase, quote, warningCode } from '../envelope.js';
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

export const codeFormat = defineRule({
  id: 'code-format',
  defaultSeverity: 'warning',
  description: 'an error or warning code that is not kebab-case',
  example: line({ ok: false, error: { code: 'WindowNotFound', category: 'no-target', detail: 'no window matched' }, sessionId }),
  reads: ['error', 'warnings'],
  check({ code, warnings }, _context, out) {
    if (code !== undefined && !isKebabCase(code)) {
      out.push({ message: `error code ${quote(code)} is not kebab-case`, pointer: '/error/code' });
    }
    for (let index = 0; index < warnings.length; index++) {
      const itemCode = warningCode(warnings[index]);
      if (itemCode === undefined || isKebabCase(itemCode)) continue;
      out.push({
        message: `warning code ${quote(itemCode)} is not kebab-case`,
        pointer: childPointer(childPointer('/warnings', index), 'code'),
      });
    }
  },
});

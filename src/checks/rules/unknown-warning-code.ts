import { childPointer, quote, warningCode } from '../envelope.js';
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

export const unknownWarningCode = defineRule({
  id: 'unknown-warning-code',
  defaultSeverity: 'warning',
  description: 'warnings[].code is not in the code registry (with the nearest known code when one is close)',
  example: line({ ok: true, result: {}, warnings: [{ code: 'minimised-window', detail: 'the window was restored first' }], sessionId }),
  reads: ['warnings'],
  check({ warnings }, { registry }, out) {
    for (let index = 0; index < warnings.length; index++) {
      const code = warningCode(warnings[index]);
      if (code === undefined || registry.isKnownWarningCode(code)) continue;
      const suggestion = registry.nearestWarningCode(code);
      out.push({
        message: `unknown warning code ${quote(code)}`,
        pointer: childPointer(childPointer('/warnings', index), 'code'),
        ...(suggestion && { suggestion }),
      });
    }
  },
});

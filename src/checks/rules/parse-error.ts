// Reported by framing (`src/framing/`) for a record it cannot read.
import { defineRule } from './rule.js';

export const parseError = defineRule({
  id: 'parse-error',
  defaultSeverity: 'error',
  description: 'a record that is not valid JSON, not UTF-8, or over the line-size limit',
  example: '{"ok":true,"result":{"window":"Untitled - Notepad"}',
});

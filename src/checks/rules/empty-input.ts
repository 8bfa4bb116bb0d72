// Reported by the run (`src/run.ts`) for an input that framing found no record in.
import { defineRule } from './rule.js';

export const emptyInput = defineRule({
  id: 'empty-input',
  defaultSeverity: 'warning',
  description: 'an input that holds no record at all',
  example: '',
});

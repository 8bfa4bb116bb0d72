// Reported by the checker from the record's text (`src/checks/duplicate-members.ts`): the value
// JSON.parse makes keeps only the last of two members of one name.
import { captured, line } from './example-records.js';
import { defineRule } from './rule.js';

export const duplicateMember = defineRule({
  id: 'duplicate-member',
  defaultSeverity: 'error',
  description: 'the envelope object, its error or a warning object holds a member name twice: parsers disagree on which one counts',
  // A reader that keeps the first `result` sees another artifact than JSON.parse, which keeps the last.
  example: `${line(captured).slice(0, -1)},"result":{"artifact":"capture-0002.png"}}`,
});

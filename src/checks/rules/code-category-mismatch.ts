import { errorObject, stringMember } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

export const codeCategoryMismatch: EnvelopeRule = {
  id: 'code-category-mismatch',
  defaultSeverity: 'warning',
  description: 'a known error code under a category the registry does not list it for',
  check(envelope, { registry, schema }, report) {
    const error = errorObject(envelope);
    if (!error) return;
    const code = stringMember(error, 'code');
    const category = stringMember(error, 'category');
    // A category outside the schema's set is the schema rule's finding; saying it twice is noise.
    if (code === undefined || category === undefined || !schema.categories.includes(category)) return;
    const listed = registry.errorCodeCategories(code);
    if (!listed || listed.has(category)) return;
    const names = [...listed].sort();
    report({
      message: `error code ${JSON.stringify(code)} belongs to ${names.join(' or ')}, not ${JSON.stringify(category)}`,
      pointer: '/error/category',
      ...(names.length === 1 && { suggestion: names[0] }),
    });
  },
};

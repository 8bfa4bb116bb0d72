import { quote } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

export const codeCategoryMismatch: EnvelopeRule = {
  id: 'code-category-mismatch',
  defaultSeverity: 'warning',
  description: 'a known error code under a category the registry does not list it for',
  reads: ['error'],
  check({ code, category }, { registry }, out) {
    // Spec section 5 makes no exception for a category outside the schema's enum: the schema rule
    // says the category is not one, this rule says which category the code belongs to.
    if (code === undefined || category === undefined) return;
    const listed = registry.errorCodeCategories(code);
    if (!listed || listed.has(category)) return;
    const names = [...listed].sort();
    out.push({
      message: `error code ${quote(code)} belongs to ${names.join(' or ')}, not ${quote(category)}`,
      pointer: '/error/category',
      ...(names.length === 1 && { suggestion: names[0] }),
    });
  },
};

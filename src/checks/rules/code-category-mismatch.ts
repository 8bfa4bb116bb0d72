import { quote } from '../envelope.js';
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';
import { otherVersionsWith } from '../schema-load.js';

/** Where the categories are (spec section 8.3): the bundled version that has them, or another --schema. */
function versionHint(categories: readonly string[], schema: { version?: string }): string {
  const versions = [...new Set(categories.flatMap((category) => otherVersionsWith(category, schema)))].sort();
  return versions.length === 0 ? "another schema's: --schema" : `schema version ${versions.join(', ')}: --schema-version ${versions.at(-1)!}`;
}

export const codeCategoryMismatch = defineRule({
  id: 'code-category-mismatch',
  defaultSeverity: 'warning',
  description: 'a known error code under a category the registry does not list it for',
  example: line({ ok: false, error: { code: 'window-not-found', category: 'timeout', detail: 'no window matched' }, sessionId }),
  reads: ['error'],
  check({ code, category }, { registry, schema }, out) {
    // Spec section 5 makes no exception for a category outside the schema's enum: the schema rule
    // says the category is not one, this rule says which category the code belongs to.
    if (code === undefined || category === undefined) return;
    const listed = registry.errorCodeCategories(code);
    if (!listed || listed.has(category)) return;
    // The registry lists codes under categories of newer schemas too (ocr-blank): suggesting one the
    // schema in use rejects sent the producer from this warning to a schema error.
    const all = [...listed].sort();
    // A schema without a category enum has no category to rule out.
    const inSchema = schema.categories.length === 0 ? all : all.filter((name) => schema.categories.includes(name));
    const names = inSchema.length > 0 ? inSchema : all;
    const elsewhere = inSchema.length > 0 ? '' : `, ${all.length === 1 ? 'a category' : 'categories'} this schema does not have (${versionHint(all, schema)})`;
    out.push({
      message: `error code ${quote(code)} belongs to ${names.join(' or ')}${elsewhere}, not ${quote(category)}`,
      pointer: '/error/category',
      ...(names.length === 1 && inSchema.length === 1 && { suggestion: names[0] }),
    });
  },
});

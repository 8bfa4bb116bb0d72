// Each category's recovery advice as data (spec section 9): the one-line advice, whether retrying
// the failed call unchanged goes against it (`noUnchangedRetry`), and the codes of that category
// after which an unchanged retry is still what MCEC expects (`retryCodes`). The bundled values are
// data/categories.json's; codes files may replace them member by member.
import { readJsonAsset } from '../assets.js';

export interface RecoveryAdvice {
  readonly advice: string;
  readonly noUnchangedRetry: boolean;
  readonly retryCodes: readonly string[];
}

export interface CategoryData extends RecoveryAdvice {
  /** When MCEC reports the category (spec section 2's first table). */
  readonly when: string;
}

let bundled: ReadonlyMap<string, CategoryData> | undefined;

function categoryData(name: string, value: unknown): CategoryData {
  const info = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { when, advice, noUnchangedRetry, retryCodes = [] } = info;
  const codesOk = Array.isArray(retryCodes) && retryCodes.every((code) => typeof code === 'string');
  // The bundled file is the package's own data: a malformed entry is a packaging fault, not user input.
  if (typeof when !== 'string' || typeof advice !== 'string' || typeof noUnchangedRetry !== 'boolean' || !codesOk) {
    throw new Error(`data/categories.json: ${name} needs "when" and "advice" strings, a "noUnchangedRetry" boolean and an optional "retryCodes" array of strings`);
  }
  return { when, advice, noUnchangedRetry, retryCodes: retryCodes as string[] };
}

/** The categories of data/categories.json, in the spec's order, each with its advice. */
export function bundledCategories(): ReadonlyMap<string, CategoryData> {
  if (bundled) return bundled;
  const data = readJsonAsset('data/categories.json') as { categories?: Record<string, unknown> };
  bundled = new Map(Object.entries(data.categories ?? {}).map(([name, info]) => [name, categoryData(name, info)]));
  return bundled;
}

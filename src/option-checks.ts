// A JavaScript caller's options, held to a table of checks: check(), formatReport() and the Vitest
// matcher each take options no compiler checked for them, so that a misspelt one is refused, not ignored.
import { quote } from './checks/envelope.js';
import { didYouMean } from './registry/nearest.js';

/** A value's problem ("expected X, got Y"), or undefined when it fits. */
export type Check = (value: unknown) => string | undefined;

/** What a value is, for "expected X, got Y": as messages quote values from records, a function named. */
export function got(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  // Never in a record, but in a caller's options: JSON.stringify throws on a BigInt ("Do not know
  // how to serialize a BigInt"), which names no option.
  if (typeof value === 'bigint') return `${value}n, a BigInt`;
  // JSON has none of them: quote() would write null for each.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return quote(value);
}

export const expecting =
  (what: string, fits: (value: unknown) => boolean): Check =>
  (value) =>
    fits(value) ? undefined : `expected ${what}, got ${got(value)}`;

export const aFlag = expecting('true or false', (value) => typeof value === 'boolean');

/**
 * The first problem of `options` against `checks`, or undefined: a key no check knows (with the
 * name `nearest` finds among them, else `otherwise`), or a value its check refuses. An undefined
 * value is an option left out; a problem starting with "." or "[" is said of a member (`rules.schema`,
 * `stdin[2]`).
 */
export function optionsProblem(options: object, checks: Readonly<Record<string, Check>>, nearest: (key: string, names: string[]) => string | undefined, otherwise = ''): string | undefined {
  for (const key of Object.keys(options)) {
    if (!Object.hasOwn(checks, key)) return `unknown option ${JSON.stringify(key)}${didYouMean(nearest(key, Object.keys(checks)), otherwise)}`;
  }
  // Each option read as the run reads it, through getters and prototypes: an own-keys walk would let
  // a class's `get shard()` (or an option inherited with Object.create) through unchecked.
  for (const [key, check] of Object.entries(checks)) {
    const value: unknown = (options as Record<string, unknown>)[key];
    const problem = value === undefined ? undefined : check(value);
    if (problem !== undefined) return `${key}${problem.startsWith('.') || problem.startsWith('[') ? '' : ': '}${problem}`;
  }
  return undefined;
}

import type { CodeRegistry } from '../../registry/registry.js';
import type { RuleInfo } from '../../types.js';
import type { EnvelopeFacts } from '../envelope.js';

/** What a rule may report for one envelope; the runner adds the rule id and severity. */
export interface RuleReport {
  message: string;
  pointer?: string;
  suggestion?: string;
}

/** Where a rule puts its reports: an array will do (tests), the runner's keeps the first hundred of a record. */
export interface RuleSink {
  push(report: RuleReport): void;
}

export interface RuleContext {
  registry: CodeRegistry;
  /** The schema in use: its categories are the ones a suggestion may name. */
  schema: { readonly categories: readonly string[]; readonly version?: string };
}

/**
 * The parts of an envelope a rule reads: `outcome` is `ok` and `result` when they are not a plain
 * success (ok true, with a result) or a plain failure (ok false, without one), `error` the error
 * object, `warnings` a non-empty warnings array. A rule is not run on an envelope that has none of
 * its parts (most records are plain successes without warnings, on which no rule can fire); a
 * property test holds every rule to finding nothing there.
 */
export type EnvelopePart = 'outcome' | 'error' | 'warnings';

/** A contract rule the schema cannot express, checked on every envelope that has a part it reads. */
export interface EnvelopeRule extends RuleInfo {
  reads: readonly EnvelopePart[];
  /** Puts what it finds in `out`. */
  check(envelope: EnvelopeFacts, context: RuleContext, out: RuleSink): void;
}

// What a rule is: its metadata, and for the envelope rules the check. Each rule is one
// `defineRule({...})` in `rules/<id>.ts`; `rules/index.ts` lists them, and the rule ids, the
// catalog, `explain`, SARIF's rules and the report schema's `rule` enum all follow that list.
// `types.ts` derives `RuleId` from the list, so nothing the rule files import may import `types.ts`:
// `Severity` lives here for that reason (`types.ts` re-exports it).
import type { CodeRegistry } from '../../registry/registry.js';
import type { EnvelopeFacts } from '../envelope.js';

export type Severity = 'error' | 'warning';

/** What a rule file declares. */
export interface RuleSpec<Id extends string = string> {
  readonly id: Id;
  readonly defaultSeverity: Severity;
  /** One line, shown by `explain`, SARIF and the README's rules table. */
  readonly description: string;
  /**
   * What a user would find in an input file that breaks the rule (a bare envelope, an MCP
   * CallToolResult, or transcript lines joined with `\n`; `''` is an empty file), shown by
   * `explain` and SARIF. test/explain.test.ts runs each through the built CLI.
   */
  readonly example: string;
}

/** A rule as the list holds it: its spec and the page that documents it. */
export interface RuleDefinition<Id extends string = string> extends RuleSpec<Id> {
  /** Relative to the package root. */
  readonly docs: `docs/rules/${Id}.md`;
}

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
export interface EnvelopeRuleSpec<Id extends string = string> extends RuleSpec<Id> {
  readonly reads: readonly EnvelopePart[];
  /** Puts what it finds in `out`. */
  check(envelope: EnvelopeFacts, context: RuleContext, out: RuleSink): void;
}

export interface EnvelopeRule<Id extends string = string> extends EnvelopeRuleSpec<Id>, RuleDefinition<Id> {}

/**
 * A rule with a check runs on envelopes (`checks/catalog.ts` lists them in their order); one
 * without is reported by another stage (framing, unwrap, run, bundles), which names it by its id.
 */
export function defineRule<const Id extends string>(rule: EnvelopeRuleSpec<Id>): EnvelopeRule<Id>;
export function defineRule<const Id extends string>(rule: RuleSpec<Id>): RuleDefinition<Id>;
export function defineRule<const Id extends string>(rule: RuleSpec<Id>): RuleDefinition<Id> {
  return { ...rule, docs: `docs/rules/${rule.id}.md` };
}

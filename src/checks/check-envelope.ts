// One envelope in, its findings out: the schema first, then every contract rule that is not off.
import type { CodeRegistry } from '../registry/registry.js';
import type { RecordFinding, RuleId, Severity } from '../types.js';
import { envelopeRules } from './catalog.js';
import { childPointer, factsOf, type EnvelopeFacts } from './envelope.js';
import { isMemberlessObject, notAnEnvelopeMessage } from './envelope-members.js';
import { cutText } from '../text.js';
import { redactPointer } from '../redact.js';
import type { EnvelopeRule, RuleReport, RuleSink } from './rules/rule.js';
import { describeSchemaErrors } from './schema.js';
import { maxValuesListedAtRunTime, type EnvelopeSchema } from './schema-load.js';
import type { Severities } from './severity.js';

export interface CheckContext {
  schema: EnvelopeSchema;
  registry: CodeRegistry;
  severities: Severities;
  /** Keep envelope values out of messages (--redact). */
  redact: boolean;
  /** The `--codes` files the registry was made from, as given (what check() compares its own options with). */
  codes?: readonly string[];
}

/** Builds a finding for `rule` at its configured severity, or nothing when the rule is off. */
export function ruleFinding(context: CheckContext, rule: RuleId, report: RuleReport & Partial<RecordFinding>): RecordFinding | undefined {
  const severity = context.severities[rule];
  if (severity === 'off') return undefined;
  return { rule, severity, ...report };
}

/**
 * A record lists at most this many findings of one rule, then one more that says how many it left
 * out. One line of a million unexpected members or bad warnings was a million findings, and their
 * objects, several per finding, exhausted the heap (a 4.7 MB line took 680 MB; a 64 MiB one would
 * have ended the process). Past the first hundred they say nothing the first did not.
 */
export const maxFindingsPerRule = 100;

/**
 * boundedAtRunTime (schema-load.ts) listed a large record's first schema error only. Made when first
 * needed: toLocaleString loads ICU's locale data, ~4 ms of every start here when it ran at load.
 */
function unlistedMessage(): string {
  return `only the first schema error of this record is listed: it holds more than ${maxValuesListedAtRunTime.toLocaleString('en-US')} values, and a schema compiled at run time (not the bundled one) is not asked for every error of so large a record`;
}

function moreFinding(rule: RuleId, severity: Severity, count: number, what: string): RecordFinding {
  return { rule, severity, message: `and ${count} more ${what} in this record, not listed (a record lists at most ${maxFindingsPerRule} findings of one rule)` };
}

/** Where a rule's reports of one record go (one sink, reused: no closure per record): the first ones kept, the rest counted. */
class ReportSink implements RuleSink {
  readonly reports: RuleReport[] = [];
  more = 0;

  push(report: RuleReport): void {
    if (this.reports.length < maxFindingsPerRule) this.reports.push(report);
    else this.more++;
  }
}

const sink = new ReportSink();

interface ActiveRule {
  rule: EnvelopeRule<RuleId>;
  severity: Severity;
}

/** The rules to run on an envelope, indexed by the parts it has: +1 an error, +2 warnings, +4 an outcome to look at. */
type RulePlan = readonly (readonly ActiveRule[])[];

const errorPart = 1;
const warningsPart = 2;
const outcomePart = 4;

/**
 * Which of the parts rules read (EnvelopePart) an envelope has. Its outcome is one to look at unless
 * it is a plain success (ok true, with a result) or a plain failure (ok false, without one): most
 * records are, and the two outcome rules were two calls on every record (~1 % of a 1M-line run).
 */
function partsOf(facts: EnvelopeFacts): number {
  const plain = facts.ok === true ? facts.hasResult : facts.ok === false && !facts.hasResult;
  return (facts.error !== undefined ? errorPart : 0) | (facts.warnings.length > 0 ? warningsPart : 0) | (plain ? 0 : outcomePart);
}

function runsOn(parts: number, rule: EnvelopeRule): boolean {
  return ((parts & outcomePart) !== 0 && rule.reads.includes('outcome')) || ((parts & errorPart) !== 0 && rule.reads.includes('error')) || ((parts & warningsPart) !== 0 && rule.reads.includes('warnings'));
}

/** Whether the checks run `rule` on an envelope with these facts (a rule must find nothing where it is not run). */
export function ruleRunsOn(rule: EnvelopeRule, facts: EnvelopeFacts): boolean {
  return runsOn(partsOf(facts), rule);
}

function planRules(severities: Severities): RulePlan {
  const active = envelopeRules.flatMap((rule) => {
    const severity = severities[rule.id];
    return severity === 'off' ? [] : [{ rule, severity }];
  });
  return Array.from({ length: 8 }, (_, parts) => active.filter((entry) => runsOn(parts, entry.rule)));
}

const plans = new WeakMap<Severities, RulePlan>();
// A run has one Severities object: remembered outside the WeakMap, it costs no lookup per record.
let lastSeverities: Severities | undefined;
let lastPlan: RulePlan = [];

/** The rules that are not off, with their severities: worked out once per run, not per record. */
function rulePlan(severities: Severities): RulePlan {
  if (severities === lastSeverities) return lastPlan;
  let plan = plans.get(severities);
  if (!plan) plans.set(severities, (plan = planRules(severities)));
  lastSeverities = severities;
  lastPlan = plan;
  return plan;
}

// Most records have no finding: they share this (frozen, so that nobody appends to it by mistake).
const noFindings: readonly RecordFinding[] = Object.freeze([]);

/**
 * A library caller's value may be anything JavaScript allows; the checks walk JSON. A value that
 * refers to itself made a rule's walk run until the heap ran out (a V8 fatal error, no exception),
 * so one with no JSON form (a cycle, a BigInt) is a TypeError here, saying where. One with a JSON
 * form is checked as that JSON, what a client reads on the wire: `result: new Date()` passed as an
 * object where the wire holds a string, and a function member (absent from the wire) was faulted.
 * A value nested too deep for JSON.stringify's stack, or with no JSON text at all (undefined), is
 * checked as it is.
 */
export function jsonFormOf(value: unknown): unknown {
  let reason: string | undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value) as string | undefined;
  } catch (error) {
    // Nesting deeper than JSON.stringify's stack (about 5,000 levels) is JSON all the same, as the
    // command line reads it: was refused as "Maximum call stack size exceeded". A BigInt's message
    // names no place (V8's message for a cycle names the property that closes it); the walk does.
    const message = error instanceof Error ? error.message.replace(/\s*\n\s*/g, ' ') : String(error);
    reason = error instanceof RangeError ? deepProblem(value) : isBigIntError(error) ? (deepProblem(value) ?? message) : message;
  }
  if (reason !== undefined) throw new TypeError(`mcec-result: the value to check is not JSON: ${reason}`);
  return text === undefined ? value : JSON.parse(text);
}

function isBigIntError(error: unknown): boolean {
  return error instanceof TypeError && error.message.includes('BigInt');
}

/** A pointer for a message: a 100,000-level one would be 200 KB of it. */
function shownPointer(pointer: string): string {
  if (pointer === '') return 'the value itself';
  return pointer.length > 200 ? `${cutText(pointer, 199)}…` : pointer;
}

/** What JSON.stringify would refuse in a value, and where: a cycle or a BigInt; undefined for none. */
function deepProblem(value: unknown): string | undefined {
  // Each container is entered once and left once: `open` holds the ones on the current path.
  const open = new Set<object>();
  const stack: { node: unknown; pointer: string; leaving: boolean }[] = [{ node: value, pointer: '', leaving: false }];
  while (stack.length > 0) {
    const { node, pointer, leaving } = stack.pop()!;
    if (typeof node === 'bigint') return `Do not know how to serialize a BigInt, at ${shownPointer(pointer)} (JSON has none: give a number or a string)`;
    if (typeof node !== 'object' || node === null) continue;
    if (leaving) {
      open.delete(node);
      continue;
    }
    if (open.has(node)) return `Converting circular structure to JSON: the value at ${shownPointer(pointer)} holds itself`;
    open.add(node);
    stack.push({ node, pointer, leaving: true });
    // Last member first onto the stack: the first problem in member order is the one said.
    const members = Object.entries(node);
    for (let i = members.length - 1; i >= 0; i--) stack.push({ node: members[i]![1], pointer: childPointer(pointer, members[i]![0]), leaving: false });
  }
  return undefined;
}

/**
 * ajv's code recurses with a recursive schema (a tree through `$ref`), and a record nested deep
 * enough ran the stack out: the whole input was reported unreadable, every record after it unread.
 * That record is invalid instead, with a finding that says why.
 */
function validates(context: CheckContext, envelope: unknown): boolean {
  const { validate } = context.schema;
  try {
    return validate(envelope) as boolean;
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    validate.errors = [{ instancePath: '', schemaPath: '#', keyword: '$ref', params: {}, message: 'is nested too deep to validate against this schema (its $refs recurse past the call stack)' }];
    return false;
  }
}

/** The findings of one envelope; the returned array may be shared and must not be modified. */
export function checkEnvelopeWith(context: CheckContext, envelope: unknown): readonly RecordFinding[] {
  return checkFacts(context, factsOf(envelope));
}

/** As checkEnvelopeWith, for facts the caller has read already (and hands on to the tally). */
export function checkFacts(context: CheckContext, facts: EnvelopeFacts): readonly RecordFinding[] {
  const envelope = facts.value;
  // Spec section 8.4: an object with no envelope member is other JSON, one finding for it, not one
  // schema finding per member it holds; with the rule off, the schema judges it as any value.
  // An `ok` member (nearly every record) settles it without looking at the names.
  if (facts.ok === undefined) {
    const severity = context.severities['not-an-envelope'];
    if (severity !== 'off' && isMemberlessObject(envelope)) return [{ rule: 'not-an-envelope', severity, message: notAnEnvelopeMessage(envelope), pointer: '' }];
  }
  let findings: RecordFinding[] | undefined;
  const schemaSeverity = context.severities.schema;
  if (schemaSeverity !== 'off' && !validates(context, envelope)) {
    const described = describeSchemaErrors(context.schema, envelope, context.redact, maxFindingsPerRule);
    findings = described.findings.map((finding) => ({ rule: 'schema', severity: schemaSeverity, ...finding }));
    if (described.omitted > 0) findings.push(moreFinding('schema', schemaSeverity, described.omitted, 'schema errors'));
    if (described.unlisted) findings.push({ rule: 'schema', severity: schemaSeverity, message: unlistedMessage() });
  }
  const rules = rulePlan(context.severities)[partsOf(facts)]!;
  for (let r = 0; r < rules.length; r++) {
    const { rule, severity } = rules[r]!;
    rule.check(facts, context, sink);
    if (sink.reports.length === 0) continue;
    findings ??= [];
    for (const report of sink.reports) findings.push({ rule: rule.id, severity, ...report });
    if (sink.more > 0) findings.push(moreFinding(rule.id, severity, sink.more, `${rule.id} findings`));
    sink.reports.length = 0;
    sink.more = 0;
  }
  if (findings === undefined) return noFindings;
  if (context.redact) for (const finding of findings) if (finding.pointer !== undefined) finding.pointer = redactPointer(finding.pointer);
  return findings;
}

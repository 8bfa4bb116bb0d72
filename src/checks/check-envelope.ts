// One envelope in, its findings out: the schema first, then every contract rule that is not off.
import type { CodeRegistry } from '../registry/registry.js';
import type { RecordFinding, RuleId, Severity } from '../types.js';
import { envelopeRules } from './catalog.js';
import { factsOf, type EnvelopeFacts } from './envelope.js';
import type { EnvelopeRule, RuleReport } from './rules/rule.js';
import { describeSchemaErrors } from './schema.js';
import type { EnvelopeSchema } from './schema-load.js';
import type { Severities } from './severity.js';

export interface CheckContext {
  schema: EnvelopeSchema;
  registry: CodeRegistry;
  severities: Severities;
  /** Keep envelope values out of messages (--redact). */
  redact: boolean;
}

/** Builds a finding for `rule` at its configured severity, or nothing when the rule is off. */
export function ruleFinding(context: CheckContext, rule: RuleId, report: RuleReport & Partial<RecordFinding>): RecordFinding | undefined {
  const severity = context.severities[rule];
  if (severity === 'off') return undefined;
  return { rule, severity, ...report };
}

const scratch: RuleReport[] = [];

const activeBySeverities = new WeakMap<Severities, readonly { rule: EnvelopeRule; severity: Severity }[]>();

/** The rules that are not off, with their severities: worked out once per run, not per record. */
function activeRules(severities: Severities): readonly { rule: EnvelopeRule; severity: Severity }[] {
  let active = activeBySeverities.get(severities);
  if (!active) {
    active = envelopeRules.flatMap((rule) => {
      const severity = severities[rule.id];
      return severity === 'off' ? [] : [{ rule, severity }];
    });
    activeBySeverities.set(severities, active);
  }
  return active;
}

// Most records have no finding: they share this (frozen, so that nobody appends to it by mistake).
const noFindings: readonly RecordFinding[] = Object.freeze([]);

/** The findings of one envelope; the returned array may be shared and must not be modified. */
export function checkEnvelopeWith(context: CheckContext, envelope: unknown): readonly RecordFinding[] {
  return checkFacts(context, factsOf(envelope));
}

/** As checkEnvelopeWith, for facts the caller has read already (and hands on to the tally). */
export function checkFacts(context: CheckContext, facts: EnvelopeFacts): readonly RecordFinding[] {
  const envelope = facts.value;
  let findings: RecordFinding[] | undefined;
  const schemaSeverity = context.severities.schema;
  if (schemaSeverity !== 'off' && !context.schema.validate(envelope)) {
    findings = describeSchemaErrors(context.schema, envelope, context.redact).map((finding) => ({ rule: 'schema', severity: schemaSeverity, ...finding }));
  }
  for (const { rule, severity } of activeRules(context.severities)) {
    rule.check(facts, context, scratch);
    if (scratch.length === 0) continue;
    findings ??= [];
    for (const report of scratch) findings.push({ rule: rule.id, severity, ...report });
    scratch.length = 0;
  }
  return findings ?? noFindings;
}

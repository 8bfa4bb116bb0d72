// What the checks read of a record, as the scanner's plan (src/framing/scan-plan.ts): the bundled
// schemas' members, what a `--schema` reads (src/framing/schema-plan.ts), and what the rules read.
// Framing builds what a plan asks and knows no envelope; the checks, which read it, say what that is.
import type { Parser } from '../framing/parser.js';
import { compilePlan, wholePlan, type PlanSpec, type ScanPlan } from '../framing/scan-plan.js';
import { joinPlans, schemaPlanSpec } from '../framing/schema-plan.js';
import type { CheckContext } from './check-envelope.js';
import type { EnvelopeSchema } from './schema-load.js';

/** What the envelope plan builds beyond what the schema and rules read. */
export interface EnvelopePlanOptions {
  /** `'image'` when a rule reads inside `error.lastObservation` (`inline-image`). */
  lastObservation: 'whole' | 'type' | 'image';
  /** Locate the top-level members' values (ScanAccept.valueOffsets); true unless false. */
  valueOffsets?: boolean;
}

/**
 * The plan for the bundled envelope schemas (data/agent-tool-result.schema*.json): `result` and
 * `error.partialResult` are constrained by their type alone; `error.lastObservation` is built whole
 * only when a rule reads inside it (and then only when it may hold what the rule looks for).
 * Duplicate names are reported where the `duplicate-member` rule looks: the envelope, its `error`,
 * each warning.
 */
export function envelopePlanSpec(options: EnvelopePlanOptions): PlanSpec {
  return {
    duplicates: true,
    valueOffsets: options.valueOffsets ?? true,
    members: {
      ok: 'whole',
      sessionId: 'whole',
      result: 'type',
      // Named though built whole as the rest would be: a named member is matched on its bytes.
      warnings: { items: { duplicates: true, members: { code: 'whole', detail: 'whole' } } },
      error: { duplicates: true, members: { code: 'whole', category: 'whole', detail: 'whole', partialResult: 'type', lastObservation: options.lastObservation } },
    },
  };
}

export function envelopePlan(options: EnvelopePlanOptions): ScanPlan {
  return compilePlan(envelopePlanSpec(options));
}

/**
 * The plan of an envelope checked against `document`: what its schema reads, joined with what the
 * checks read of any envelope, which is the bundled schemas' plan (envelopePlanSpec: everything but
 * `result`, `error.partialResult` and, unless `inline-image` reads it, `error.lastObservation`;
 * duplicate names reported where `duplicate-member` looks). Its members come first, in its order:
 * the bundled schemas give it exactly (schema-plan.test.ts).
 */
export function envelopePlanSpecFor(document: unknown, options: EnvelopePlanOptions): PlanSpec {
  return joinPlans(envelopePlanSpec(options), schemaPlanSpec(document));
}

/** What a unit's run asks of its records beyond the checks: each needs values built whole. */
export interface PlanNeeds {
  parser?: Parser;
  extract?: boolean;
  /** A baseline's digest of every record with findings. */
  fingerprints?: boolean;
  /** The HTML report's record text. */
  recordText?: boolean;
}

// Made once per schema (and per process): a plan keeps the object shapes it meets between lines (scan-plan.ts).
const plans = new WeakMap<object, { observed?: ScanPlan; unobserved?: ScanPlan }>();

/**
 * The plan the scanner frames a unit's lines with; undefined for the reference path. It is derived
 * from the schema in use: what no keyword of it can look inside, and no check reads (a bundled
 * schema's `result` and `error.partialResult`; `error.lastObservation` unless `inline-image` reads
 * it), is left unbuilt; a schema the walk cannot follow, a baseline's digest or a record's text read
 * everything, so those build the whole value. Lines that are no bare envelope (wrappings, whose
 * envelope is inside) are built whole by the framer (src/unwrap/built-whole.ts).
 */
export function scanPlanFor(context: CheckContext, needs: PlanNeeds): ScanPlan | undefined {
  if (needs.parser === 'reference' || needs.extract === true) return undefined;
  if (needs.fingerprints === true || (needs.recordText === true && !context.redact)) return wholePlan;
  const { schema } = context;
  let cached = plans.get(schema.document);
  if (cached === undefined) plans.set(schema.document, (cached = {}));
  if (context.severities['inline-image'] !== 'off') return (cached.observed ??= derivedPlan(schema, 'image'));
  return (cached.unobserved ??= derivedPlan(schema, 'type'));
}

function derivedPlan({ document, asBuilt }: EnvelopeSchema, lastObservation: 'image' | 'type'): ScanPlan {
  const options = { lastObservation, valueOffsets: false };
  if (asBuilt === true) return compilePlan(envelopePlanSpec(options));
  return schemaPlanSpec(document) === 'whole' ? wholePlan : compilePlan(envelopePlanSpecFor(document, options));
}

/**
 * The plan an MCP text block's envelope is scanned with (src/framing/scan-text.ts), given the
 * unit's: the bare envelope's, so that it is built as a line of its own would be; undefined where
 * JSON.parse builds it whole (the reference path, a plan that builds everything).
 */
export function textPlanOf(plan: ScanPlan | undefined): ScanPlan | undefined {
  return plan === wholePlan ? undefined : plan;
}

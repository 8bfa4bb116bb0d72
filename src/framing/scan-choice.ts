// Which parser frames a line-delimited input's lines, and what the scanner builds of each:
// the validating scanner (scan.ts) with a plan that leaves unbuilt what no check of this run reads,
// or the reference path (decode, then JSON.parse), which the differential tests hold it to.
import type { CheckContext } from '../checks/check-envelope.js';
import { compilePlan, wholePlan, type ScanPlan } from './scan.js';
import { envelopePlanSpecFor, schemaPlanSpec } from './schema-plan.js';

export type Parser = 'scan' | 'reference';

/**
 * The parser of this process: `MCEC_RESULT_PARSER=reference` picks the reference path, for the
 * differential tests and the bench; anything else, the scanner. Read here only.
 */
export function chosenParser(): Parser {
  return process.env['MCEC_RESULT_PARSER'] === 'reference' ? 'reference' : 'scan';
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
 * from the schema in use (schema-plan.ts): what no keyword of it can look inside, and no check reads
 * (a bundled schema's `result` and `error.partialResult`; `error.lastObservation` unless
 * `inline-image` reads it), is left unbuilt; a schema the walk cannot follow, a baseline's digest
 * or a record's text read everything, so those build the whole value. Lines that are no bare
 * envelope (wrappings, whose envelope is inside) are built whole by the framer.
 */
export function scanPlanFor(context: CheckContext, needs: PlanNeeds): ScanPlan | undefined {
  if (needs.parser === 'reference' || needs.extract === true) return undefined;
  if (needs.fingerprints === true || (needs.recordText === true && !context.redact)) return wholePlan;
  const { document } = context.schema;
  let cached = plans.get(document);
  if (cached === undefined) plans.set(document, (cached = {}));
  if (context.severities['inline-image'] !== 'off') return (cached.observed ??= derivedPlan(document, 'image'));
  return (cached.unobserved ??= derivedPlan(document, 'type'));
}

function derivedPlan(document: unknown, lastObservation: 'image' | 'type'): ScanPlan {
  return schemaPlanSpec(document) === 'whole' ? wholePlan : compilePlan(envelopePlanSpecFor(document, { lastObservation, valueOffsets: false }));
}

/**
 * The plan an MCP text block's envelope is scanned with (scan-text.ts), given the unit's: the bare
 * envelope's, so that it is built as a line of its own would be; undefined where JSON.parse builds
 * it whole (the reference path, a plan that builds everything).
 */
export function textPlanOf(plan: ScanPlan | undefined): ScanPlan | undefined {
  return plan === wholePlan ? undefined : plan;
}

/**
 * Whether a value the envelope plan built must be built whole: `'line'`, this one; `'input'`, this
 * one and the input's next lines. Any object but a bare envelope may be a wrapping (a transcript
 * line, a JSON-RPC message, an MCP result), whose envelope is inside, where the envelope plan
 * builds nothing; once a line is one by its own member, the input is a wrapped one. Other values
 * the plan builds whole. A wrapped line is mostly the text block that holds the envelope, a string
 * JSON.parse reads natively faster than the scanner passes over it: the framer gives a wrapped
 * input's lines to the reference path, and the envelope in the text to the scanner (scan-text.ts).
 */
export function wholeValueNeeded(value: unknown): 'line' | 'input' | undefined {
  if (!isOtherObject(value)) return undefined;
  return isWrapping(value) ? 'input' : 'line';
}

/**
 * An object that is no bare envelope as the unwrappers take one before anything else
 * (src/unwrap/auto.ts): one with `ok` and neither a transcript line's `direction` nor a JSON-RPC
 * message's `jsonrpc`.
 */
function isOtherObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const object = value as Record<string, unknown>;
  return object['ok'] === undefined || object['direction'] !== undefined || object['jsonrpc'] !== undefined;
}

/** A transcript line, a JSON-RPC message or an MCP CallToolResult, by its own member. */
function isWrapping(object: Record<string, unknown>): boolean {
  return object['direction'] !== undefined || object['jsonrpc'] !== undefined || object['content'] !== undefined;
}

// A record the scanner built in part (src/framing/schema-plan.ts stands in what no keyword of the
// schema looks inside) gets every verdict JSON.parse's value gets. One thing reads the whole value
// all the same: a validator ajv compiled at run time lists every error only of a record that holds
// few enough values (boundedAtRunTime in schema-load.ts), and a stand-in counts as one value where
// the line may hold thousands. Such a record, once rejected, is checked again on its whole value.
import { parseJson } from '../framing/nesting.js';
import { isTypeOnly } from '../framing/scan-plan.js';
import type { RecordFinding } from '../types.js';
import { checkFacts, type CheckContext } from './check-envelope.js';
import { factsOf } from './envelope.js';
import { holdsMoreThan, listsAtRunTime, maxValuesListedAtRunTime } from './schema-load.js';

/** Whether `value` holds a stand-in of the scanner's anywhere (an explicit stack: any depth). */
export function holdsStandIn(value: unknown): boolean {
  const open: unknown[] = [value];
  while (open.length > 0) {
    const next = open.pop();
    if (typeof next !== 'object' || next === null) continue;
    if (isTypeOnly(next)) return true;
    for (const member of Array.isArray(next) ? next : Object.values(next)) if (typeof member === 'object' && member !== null) open.push(member);
  }
  return false;
}

/**
 * Whether the findings of `envelope`, a value the scanner built, must be made again from its whole
 * value: the schema rejected it (a schema finding), its validator counts values, and it holds a stand-in.
 */
export function needsWholeValue(context: CheckContext, findings: readonly RecordFinding[], envelope: unknown): boolean {
  if (!listsAtRunTime(context.schema.validate)) return false;
  let rejected = false;
  for (let i = 0; i < findings.length; i++) if (findings[i]!.rule === 'schema') rejected = true;
  return rejected && holdsStandIn(envelope);
}

/**
 * `findings`, checkFacts' of `envelope`, which the scanner built from `text` (a bare envelope's
 * line): as they are, or made again from JSON.parse's value of `text` where needsWholeValue says so.
 */
export function checkedWhole(context: CheckContext, findings: readonly RecordFinding[], envelope: unknown, text: string): readonly RecordFinding[] {
  // JSON text holds at most (length + 1) / 2 values (`[1,1]`): a shorter one is listed whole either way.
  if (text.length < 2 * maxValuesListedAtRunTime || !needsWholeValue(context, findings, envelope)) return findings;
  let whole: unknown;
  try {
    whole = parseJson(text);
  } catch {
    // The scanner took the text, as JSON.parse does: never here; were it, the findings stand.
    return findings;
  }
  // Within the limit, whole or built, its errors are all listed, the same.
  return holdsMoreThan(whole, maxValuesListedAtRunTime) ? checkFacts(context, factsOf(whole, true)) : findings;
}

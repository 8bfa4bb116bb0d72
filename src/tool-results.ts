// Spec section 8.5: an input read to its end whose entries were all skipped (requests, answers to
// other methods, noise) held no tool result at all, which a run must not pass over as "no problems".
import { ruleFinding, type CheckContext } from './checks/check-envelope.js';
import type { RecordFinding } from './types.js';

/** What an input's entries (or a byte range's) turned out to be, as far as this rule asks. */
export interface EntryKinds {
  entries: number;
  records: number;
  skipped: number;
  /** Of `skipped`: reports and baselines of mcec-result's own, which are no log of tool calls. */
  ownSkipped: number;
  /** The line of the first entry (the first non-blank line); undefined when there is none. */
  firstLine: number | undefined;
}

export function noEntries(): EntryKinds {
  return { entries: 0, records: 0, skipped: 0, ownSkipped: 0, firstLine: undefined };
}

/** The kinds of several byte ranges of one input, in order; `offsets[i]` shifts range i's lines. */
export function addEntryKinds(parts: readonly EntryKinds[], offsets: readonly number[]): EntryKinds {
  const sum = noEntries();
  parts.forEach((part, i) => {
    sum.entries += part.entries;
    sum.records += part.records;
    sum.skipped += part.skipped;
    sum.ownSkipped += part.ownSkipped;
    if (sum.firstLine === undefined && part.firstLine !== undefined) sum.firstLine = part.firstLine + offsets[i]!;
  });
  return sum;
}

/**
 * The `no-tool-results` finding of an input, when it has one (at `kinds.firstLine`): no record, and
 * a skipped entry that is not one of the checker's own reports (a folder that holds the report of
 * an earlier run is not a log without tool results).
 */
export function noToolResults(context: CheckContext, kinds: EntryKinds): RecordFinding | undefined {
  if (kinds.records > 0 || kinds.skipped - kinds.ownSkipped === 0 || kinds.firstLine === undefined) return undefined;
  const lines = kinds.entries === 1 ? '1 line, not a tool result' : `${kinds.entries} lines, none a tool result`;
  return ruleFinding(context, 'no-tool-results', { message: `${lines} (${kinds.skipped} skipped: requests, other methods, noise)` });
}

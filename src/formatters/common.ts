// Pieces every text format shares.
import type { Finding } from '../types.js';

/** A finding's message with its suggestion, as every text format shows it. */
export function messageWithSuggestion(finding: Finding): string {
  return finding.suggestion === undefined ? finding.message : `${finding.message} (did you mean "${finding.suggestion}"?)`;
}

/** Findings grouped by input, in report order (findings of one input are adjacent). */
export function groupBySource(findings: readonly Finding[]): Finding[][] {
  const groups: Finding[][] = [];
  for (const finding of findings) {
    const last = groups.at(-1);
    if (last && last[0]!.location.source === finding.location.source) last.push(finding);
    else groups.push([finding]);
  }
  return groups;
}

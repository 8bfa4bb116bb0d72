import type { Finding } from '../types.js';

/** A finding's message with its suggestion, as every text format shows it. */
export function messageWithSuggestion(finding: Finding): string {
  return finding.suggestion === undefined ? finding.message : `${finding.message} (did you mean "${finding.suggestion}"?)`;
}

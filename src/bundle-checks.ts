// The cross-checks of an evidence bundle (spec section 8.2): its session.json against its
// transcript. The transcript's unit notes which sessions its lines name and whether it ends with
// the truncation marker; session.json's unit notes its members and their lines; the run puts the
// two together once both are read, so that it does not matter which thread read which.
import { ruleFinding, type CheckContext } from './checks/check-envelope.js';
import { loadJsoncParser } from './lazy.js';
import type { Finding, Framed, RuleId } from './types.js';

/** What session.json says, and where. */
export interface SessionFacts {
  /** The first non-blank line: where a finding on the whole file sits. */
  firstLine: number;
  sessionId?: { value: string; line: number };
  truncated?: { value: boolean; line: number };
}

/** What a transcript's lines say about its session and its end. */
export interface TranscriptFacts {
  /** Distinct transcript-line `sessionId` strings, in order of first sight (enough to name three others). */
  sessionIds: string[];
  /** Its last entry is the truncation marker. */
  endsTruncated: boolean;
}

/** Distinct ids kept: three that differ from session.json's, and maybe session.json's own. */
const keptIds = 4;

export class TranscriptWatcher {
  private readonly ids: string[] = [];
  private last = false;

  see(framed: Framed): void {
    this.last = false;
    if (framed.kind !== 'value' || typeof framed.value !== 'object' || framed.value === null || Array.isArray(framed.value)) return;
    const value = framed.value as Record<string, unknown>;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'truncated') {
      this.last = true;
      return;
    }
    const id = value.sessionId;
    if (typeof id === 'string' && 'direction' in value && this.ids.length < keptIds && !this.ids.includes(id)) this.ids.push(id);
  }

  facts(): TranscriptFacts {
    return { sessionIds: this.ids, endsTruncated: this.last };
  }
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** session.json's facts, from its decoded text and the value it parsed to. */
export function sessionFacts(text: string, value: unknown): SessionFacts {
  const blank = /^[ \t\r]*(?:\n|$)/y;
  let firstLine = 1;
  for (let at = 0; at < text.length; firstLine++) {
    blank.lastIndex = at;
    if (!blank.test(text)) break;
    const next = text.indexOf('\n', at);
    if (next === -1) break;
    at = next + 1;
  }
  const facts: SessionFacts = { firstLine };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return facts;
  const record = value as Record<string, unknown>;
  const { sessionId, toolCallLogTruncated } = record;
  if (typeof sessionId !== 'string' && typeof toolCallLogTruncated !== 'boolean') return facts;
  // The line of a member's name, as the parser meets the members (the last of a repeated name counts, as in JSON.parse).
  const lines = new Map<string, number>();
  loadJsoncParser().visit(text, {
    onObjectProperty: (property, offset, _length, _line, _column, pathSupplier) => {
      if (pathSupplier().length === 0) lines.set(property, lineAt(text, offset));
    },
  });
  if (typeof sessionId === 'string') facts.sessionId = { value: sessionId, line: lines.get('sessionId') ?? firstLine };
  if (typeof toolCallLogTruncated === 'boolean') facts.truncated = { value: toolCallLogTruncated, line: lines.get('toolCallLogTruncated') ?? firstLine };
  return facts;
}

function finding(context: CheckContext, rule: RuleId, message: string, source: string, line: number): Finding | undefined {
  const made = ruleFinding(context, rule, { message });
  return made && { rule: made.rule, severity: made.severity, message: made.message, location: { source, line } };
}

const quoted = (ids: readonly string[]): string => ids.map((id) => JSON.stringify(id)).join(', ');

/** The findings on session.json, in report order: its bundle's transcripts read (none: no tool call was recorded). */
export function bundleFindings(context: CheckContext, source: string, session: SessionFacts, transcripts: readonly TranscriptFacts[] | 'none'): Finding[] {
  if (transcripts === 'none') {
    const none = finding(context, 'no-tool-results', 'the bundle holds no tool-calls.jsonl: no tool call was recorded', source, session.firstLine);
    return none ? [none] : [];
  }
  const found: Finding[] = [];
  if (transcripts.length === 0) return found;
  const { sessionId, truncated } = session;
  if (sessionId) {
    const others = [...new Set(transcripts.flatMap((t) => t.sessionIds))].filter((id) => id !== sessionId.value).slice(0, 3);
    if (others.length > 0) {
      const mismatch = finding(context, 'bundle-session-mismatch', `session.json names session ${JSON.stringify(sessionId.value)}, but its tool-calls.jsonl holds lines of ${others.length === 1 ? 'session' : 'sessions'} ${quoted(others)}`, source, sessionId.line);
      if (mismatch) found.push(mismatch);
    }
  }
  if (truncated) {
    const ends = transcripts.some((t) => t.endsTruncated);
    if (ends !== truncated.value) {
      const message = truncated.value
        ? 'session.json says toolCallLogTruncated: true, but its tool-calls.jsonl does not end with the truncation marker: lines may be missing or added after it'
        : 'session.json says toolCallLogTruncated: false, but its tool-calls.jsonl ends with the truncation marker';
      const mismatch = finding(context, 'bundle-truncation-mismatch', message, source, truncated.line);
      if (mismatch) found.push(mismatch);
    }
  }
  // Line, then rule id: the order of the report.
  return found.sort((a, b) => a.location.line - b.location.line || (a.rule < b.rule ? -1 : 1));
}

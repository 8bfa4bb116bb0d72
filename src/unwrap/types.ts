import type { RecordFinding, Wrapping } from '../types.js';

/** What one framed value turned out to be once its transport wrapping is taken off. */
export type Unwrapped =
  | {
      kind: 'record';
      /** The envelope; absent when a tool response held none (then `findings` says why). */
      envelope?: unknown;
      hasEnvelope: boolean;
      /** The text block the envelope was parsed from, when it was (else it is in the framed value's text). */
      envelopeText?: string | undefined;
      /** The scanner read that text and saw no member name twice where duplicate-member looks. */
      noDuplicates?: boolean;
      wrapping: Wrapping;
      tool?: string;
      /** The transcript line's sessionId, used when the envelope has none. */
      sessionId?: string;
      /** Findings only the wrapper can tell (isError, structuredContent, pairing). */
      findings: RecordFinding[];
    }
  | {
      kind: 'skipped';
      protocolError?: boolean;
      truncated?: boolean;
      /** A report or baseline of mcec-result's own: not a log that holds no tool result (spec section 8.5). */
      own?: boolean;
      findings: RecordFinding[];
      /** The line's wrapping, which its findings carry (spec section 6: omitted only when it does not apply). */
      wrapping?: Wrapping;
    };

/** A finding that concerns a line other than the one being unwrapped (e.g. an unanswered request). */
export interface LateFinding {
  line: number;
  finding: RecordFinding;
  tool?: string;
  wrapping?: Wrapping;
}

export interface FramedValue {
  value: unknown;
  line: number;
  /** Found inside a prefixed log line by --extract. */
  extracted?: boolean;
  /** The server a log line speaks for (Claude Desktop's `[odoo]`): lines pair within it. */
  pairingKey?: string;
  /** The JSON text the value was parsed from, from `textAt` (0 when absent) on: ids are read from it by their written value. */
  text?: string;
  textAt?: number;
}

/** One per input: wrappers that pair lines (transcripts) keep their state here. */
export interface Unwrapper {
  unwrap(framed: FramedValue): Unwrapped;
  /** Made one at a time as they are taken, in place order: an input may leave a million. */
  finish(): Iterable<LateFinding>;
  /** A line framing could not read: it may hold what a pairing finding would say is missing. */
  unreadable(line: number): void;
  /** Whether a JSON-RPC message was seen: its pairing spans the input, so the input cannot be split. */
  paired(): boolean;
}

/** A `tools/call` request line as unwrap sees it, for the recovery checks (spec section 9). */
export interface CallLine {
  /** The pairing key of its session: the transcript sessionId, the log's server, else ''. */
  pairing: string | number | boolean;
  tool: string | undefined;
  /** The parsed object that holds `arguments` (MCEC's payload, JSON-RPC's params). */
  holder: unknown;
  /** The framed value's source text (from `textAt` on), when framing kept it, and the member names from its root to `arguments`. */
  text: string | undefined;
  textAt: number;
  /** Every number of `text` is an integer JSON.parse keeps exact (framing/member-text.ts's numbersExact): the parsed arguments are exact. */
  exact: boolean;
  path: readonly string[];
  line: number;
  wrapping: Wrapping;
}

/**
 * Where unwrap reports calls and the first response paired to each: a call's handle is opaque to
 * unwrap, which keeps it on the open request until it is answered, then lets it go.
 */
export interface CallWatcher {
  request(call: CallLine): object | undefined;
  /** The line being unwrapped is the first response paired to `call`. */
  answered(call: object): void;
}

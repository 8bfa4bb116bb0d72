// The data that flows through the pipeline: sources -> framing -> unwrap -> checks -> tally -> formatters.
// Nothing in here does work; every stage imports its vocabulary from this file.
import type { rules } from './checks/rules/index.js';
import type { Severity } from './checks/rules/rule.js';
import type { RecordText } from './findings/record-text.js';

export type { Severity };
export type RuleSetting = Severity | 'off';

/** Every rule id of spec section 5: the ids of `src/checks/rules/index.ts`'s list. */
export type RuleId = (typeof rules)[number]['id'];

export interface RuleInfo {
  id: RuleId;
  defaultSeverity: Severity;
  /** One line, shown by `explain`, SARIF and the README. */
  description: string;
}

/** How a record reached us (spec section 3). */
export type Wrapping = 'bare' | 'mcp' | 'jsonrpc' | 'transcript' | 'log';

export interface Location {
  /** The input as named on the command line, or as found under a folder; `-` for stdin. */
  source: string;
  /**
   * 1-based line on which the record starts, or in a pretty-printed `.json` document on which the
   * value the pointer names starts (spec section 8.11); born in framing, never recomputed.
   */
  line: number;
  /** 1-based, in UTF-16 code units; for parse errors, and for values placed in a pretty-printed `.json`. */
  column?: number;
  /** JSON Pointer inside the envelope, `""` for its root. */
  pointer?: string;
}

/** Findings in report order, that can be walked more than once, and how many there are. */
export interface FindingList extends Iterable<Finding> {
  readonly length: number;
}

export interface Finding {
  rule: RuleId;
  severity: Severity;
  message: string;
  location: Location;
  keyword?: string;
  schemaPath?: string;
  suggestion?: string;
  tool?: string;
  wrapping?: Wrapping;
  /** Not in the JSON report: the record's error code and digest, which baselines match on. */
  code?: string;
  fingerprint?: string;
  /** Not in the JSON report: the record's text, for the HTML report (CheckOptions.recordText), on a run's first findings only. */
  record?: RecordText;
}

/** A finding as a check produces it, before the record's place in its input is known. */
export interface RecordFinding {
  rule: RuleId;
  severity: Severity;
  message: string;
  pointer?: string;
  keyword?: string;
  schemaPath?: string;
  suggestion?: string;
}

/**
 * Why a parse error may not be the line's fault but the framing's: a value spread over several
 * lines (`--input json`), or a log line with a prefix (`--extract`). Worded on an input's first.
 */
export type ParseHint = 'pretty' | 'prefix';

/** A 1-based line and column (UTF-16 units) in an input. */
export interface ValuePlace {
  line: number;
  column: number;
}

/**
 * Where the values of a record in a pretty-printed `.json` document start (spec section 8.11), by
 * JSON Pointer from the record's root: the places of `pointers` the record holds, and of every value
 * above them. Asked only while the record is pushed (framing/value-starts.ts).
 */
export interface ValueStarts {
  find(pointers: readonly string[]): ReadonlyMap<string, ValuePlace>;
}

/** What framing yields for every non-blank line (or `.json` array element): a value or why there is none. */
export type Framed =
  /**
   * `pairingKey`: under --extract, the server a Claude Desktop log line speaks for (spec section 8.8):
   * requests and responses pair within it, as within a transcript's sessionId. `starts`: in a
   * pretty-printed `.json` document, where the record's values start (8.11). `text`: the JSON text
   * the value was parsed from, from `textAt` (0 when absent) on, held only while the entry is
   * pushed, for what a value does not keep (duplicate members, ids by their written value);
   * `textPlace` says where that text is. `noDuplicates`: the scanner read the value as a bare
   * envelope and saw no member name twice where duplicate-member looks (src/checks/record-plan.ts).
   */
  | { kind: 'value'; line: number; value: unknown; extracted?: boolean; pairingKey?: string; starts?: ValueStarts; text?: string; textAt?: number; textPlace?: TextPlace; noDuplicates?: true }
  /**
   * `text`: the entry's own text, when framing held it, for a baseline's digest of the record: the
   * message depends on --redact and on what follows the line, the text does not.
   */
  | { kind: 'unparseable'; line: number; column?: number; message: string; hint?: ParseHint; text?: string }
  /** A line with no JSON object under --extract: counted as skipped. */
  | { kind: 'noise'; line: number };

/**
 * Where a framed value's text is, for findings placed at an offset in it: absent, it is its line's
 * own text (an offset is a column of the line); a document read whole, its text and where the
 * value's text starts in it; `false`, nowhere a finding is placed (a streamed document's element).
 */
export type TextPlace = false | { document: string; at: number };

/** A tool's records by outcome (spec section 8.6): `records == ok + failed + unknown`. */
export interface ToolCounts {
  records: number;
  ok: number;
  failed: number;
  unknown: number;
}

/** A session's records by outcome, as a tool's. */
export type SessionCounts = ToolCounts;

/**
 * What came after the failures of one category (spec section 9): the five counts sum to `failures`;
 * `next` counts the tool of every next call.
 */
export interface RecoveryRow {
  failures: number;
  sameCall: number;
  changedArguments: number;
  otherTool: number;
  end: number;
  cutOff: number;
  next: Record<string, number>;
}

/** `summary` of the JSON report, spec section 6. Key order here is the order in the report. */
export interface Summary {
  inputs: number;
  records: number;
  valid: number;
  invalid: number;
  unparseable: number;
  skipped: number;
  errors: number;
  warnings: number;
  protocolErrors: number;
  truncated: number;
  /** Only in runs with --baseline. */
  baseline?: { suppressed: number; stale: number };
  /** Only when Ctrl-C stopped the run (or a run merged from one): what follows covers only what was read before it. */
  interrupted?: true;
  /** Only when inputs could not be read (in this run or a run merged): which, and why. */
  unreadable?: InputFailure[];
  outcomes: { ok: number; failed: number; unknown: number };
  categories: Record<string, number>;
  invalidCategories: Record<string, number>;
  codes: Record<string, number>;
  unknownCodes: Record<string, number>;
  warningCodes: Record<string, number>;
  unknownWarningCodes: Record<string, number>;
  tools?: Record<string, ToolCounts>;
  sessions?: Record<string, SessionCounts>;
  /** Per failure category, what the agent did next (spec section 9); absent when no failure counted. */
  recovery?: Record<string, RecoveryRow>;
}

/** An input that could not be read (whole or to its end); the run goes on, then exits 2. */
export interface InputFailure {
  source: string;
  message: string;
}

/** Work done so far, for the progress line: counters that the units of a run add to. */
export interface Progress {
  bytes: number;
  entries: number;
  findings: number;
}

export interface Report {
  reportVersion: 1;
  tool: { name: string; version: string };
  /** `version` and `sha256` since spec section 8.3: absent in reports written before it (merge reads them as version 2026-06). */
  schema: { id?: string; source: string; version?: string; sha256?: string };
  summary: Summary;
  /**
   * Sorted: by input in command-line order, then line, column (none = 0), rule id. Walk it with
   * `for…of` (more than once if need be); past a memory budget it is read back from a temporary file.
   */
  findings: FindingList;
  /** Nearest known code for each unknown code of the summary, where one is close (human output). */
  suggestions: { codes: Record<string, string>; warningCodes: Record<string, string> };
  /** Not part of the JSON report: the CLI turns these into stderr lines and exit 2. */
  inputFailures: InputFailure[];
  /** Not part of the JSON report: what the CLI says on stderr about inputs left out (spec section 8.2). */
  notes?: readonly string[];
  /**
   * Not part of the JSON report: the names of the inputs read to their end (after --shard), as
   * findings name them. A baseline's entries for other inputs are not stale: this run did not look.
   * Absent in a merged report.
   */
  inputsRead?: readonly string[];
  /**
   * Not part of the JSON report: inputs read without --extract whose first parse error says to use it
   * (spec section 8.8), as their human summary does too. Absent when there are none, and in a merged report.
   */
  extractHints?: readonly string[];
  /**
   * Not part of the JSON report: whether findings carry their record's text (CheckOptions.recordText),
   * or why not ('redacted': --redact; 'merged': merge reads JSON reports, which hold none). Absent when not asked for.
   */
  recordText?: 'kept' | 'redacted' | 'merged';
  /** Reading stopped early (Ctrl-C): the CLI exits 130. */
  interrupted: boolean;
  /**
   * Not part of the JSON report: an input was a pipe or a device (standard input that is no file,
   * a FIFO), whose end does not say it was whole. Absent in a merged report.
   */
  piped?: boolean;
}

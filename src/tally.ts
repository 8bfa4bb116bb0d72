// Counts and distributions of spec section 6, accumulated as records stream past (nothing per record
// is kept) and sorted once when the summary is taken.
import { warningCode, type EnvelopeFacts } from './checks/envelope.js';
import type { CodeRegistry } from './registry/registry.js';
import type { RecoveryRow, Report, SessionCounts, Summary, ToolCounts } from './types.js';

/** A count that is bumped in place: one Map lookup per record instead of a get and a set. */
interface Count {
  n: number;
}

function bump(map: Map<string, Count>, key: string): void {
  const count = map.get(key);
  if (count === undefined) map.set(key, { n: 1 });
  else count.n++;
}

function plain(map: Map<string, Count>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [key, count] of map) out.set(key, count.n);
  return out;
}

/** Most frequent first, ties by code point: the same order for any split of the work. */
function sortedCounts(map: Map<string, number>): Record<string, number> {
  const entries = [...map].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries);
}

function byKey<T>(map: Map<string, T>): Record<string, T> {
  return Object.fromEntries([...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function noRecords(): ToolCounts {
  return { records: 0, ok: 0, failed: 0, unknown: 0 };
}

/** A tool's or a session's record, by its outcome (spec section 8.6): every record is one of the three. */
function countOutcome(counts: ToolCounts, ok: unknown): void {
  counts.records++;
  if (ok === true) counts.ok++;
  else if (ok === false) counts.failed++;
  else counts.unknown++;
}

/**
 * Adds `from` into `into`. `from` may be a report's written before tools and sessions counted
 * `records` and `unknown` (merge reads those): a tool's records were then its ok and failed ones
 * only, a session's records held its unknown ones too.
 */
function addOutcomes(into: ToolCounts, from: Partial<ToolCounts> & { ok: number; failed: number }): void {
  const records = from.records ?? from.ok + from.failed;
  into.records += records;
  into.ok += from.ok;
  into.failed += from.failed;
  into.unknown += from.unknown ?? records - from.ok - from.failed;
}

/** What one failure's next call was, or that none came (spec section 9, "The recovery table"). */
export type RecoveryCount = 'sameCall' | 'changedArguments' | 'otherTool' | 'end' | 'cutOff';

/** A recovery row as it is summed: `next` in a Map (a tool name is data). */
interface RecoverySums extends Omit<RecoveryRow, 'next'> {
  next: Map<string, number>;
}

function noRecovery(): RecoverySums {
  return { failures: 0, sameCall: 0, changedArguments: 0, otherTool: 0, end: 0, cutOff: 0, next: new Map() };
}

function addRecoveryRow(into: Map<string, RecoverySums>, category: string, from: RecoveryRow): void {
  let row = into.get(category);
  if (!row) into.set(category, (row = noRecovery()));
  for (const key of ['failures', 'sameCall', 'changedArguments', 'otherTool', 'end', 'cutOff'] as const) row[key] += from[key];
  addCounts(row.next, from.next);
}

/**
 * The recovery table in its order: the categories of `enumOrder` (the schema's, in its order) first,
 * then the others by code point; `next` most frequent first, ties by code point.
 */
function recoveryTable(rows: Map<string, RecoverySums>, enumOrder: readonly string[]): Record<string, RecoveryRow> {
  const place = new Map(enumOrder.map((category, k) => [category, k]));
  const rank = (category: string) => place.get(category) ?? enumOrder.length;
  const sorted = [...rows].sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(sorted.map(([category, row]) => [category, { ...row, next: sortedCounts(row.next) }]));
}

export class Tally {
  private records = 0;
  private invalid = 0;
  private unparseable = 0;
  private skipped = 0;
  private protocolErrors = 0;
  private truncated = 0;
  private ok = 0;
  private failed = 0;
  private unknown = 0;
  /** The schema's categories, each with its count from the start: a category is looked up once. */
  private readonly categories = new Map<string, Count>();
  private readonly invalidCategories = new Map<string, Count>();
  private readonly codes = new Map<string, Count>();
  private readonly warningCodes = new Map<string, Count>();
  private readonly tools = new Map<string, ToolCounts>();
  private readonly sessions = new Map<string, SessionCounts>();
  private readonly recovery = new Map<string, RecoverySums>();
  /**
   * The session counted last and its counts. A log holds a session's calls one after another, and
   * each record's sessionId is a new string, which a Map lookup hashes first; comparing it with the
   * last one's text is most often all it takes.
   */
  private lastSession: string | undefined;
  private lastSessionCounts: SessionCounts | undefined;

  /**
   * Whether the schema names no categories (a `--schema` without an enum on error.category): then
   * every category is one of it, not "not a category of the schema", as the rules read it too.
   */
  private readonly open: boolean;

  constructor(
    categoryEnum: readonly string[],
    private readonly registry: CodeRegistry,
  ) {
    this.open = categoryEnum.length === 0;
    for (const category of categoryEnum) this.categories.set(category, { n: 0 });
  }

  /** `sessionId` is the transcript line's, used when the envelope has none. Positional: per record. */
  addRecord(facts: EnvelopeFacts, invalid: boolean, tool?: string, transcriptSession?: string): void {
    this.records++;
    if (invalid) this.invalid++;
    const { ok, category, code } = facts;
    // Branches, not `counts[outcome]++`: an increment keyed by a string is a lookup on every record.
    if (ok === true) this.ok++;
    else if (ok === false) this.failed++;
    else this.unknown++;

    if (category !== undefined) {
      const count = this.categories.get(category);
      if (count !== undefined) count.n++;
      else bump(this.open ? this.categories : this.invalidCategories, category);
    }
    if (code !== undefined) bump(this.codes, code);
    // Indexed: a for-of makes an iterator object for every record.
    const { warnings } = facts;
    for (let i = 0; i < warnings.length; i++) {
      const code = warningCode(warnings[i]);
      if (code !== undefined) bump(this.warningCodes, code);
    }

    if (tool !== undefined) {
      let counts = this.tools.get(tool);
      if (!counts) this.tools.set(tool, (counts = noRecords()));
      countOutcome(counts, ok);
    }
    const sessionId = facts.sessionId ?? transcriptSession;
    if (sessionId !== undefined) {
      let counts = sessionId === this.lastSession ? this.lastSessionCounts! : this.sessions.get(sessionId);
      if (!counts) this.sessions.set(sessionId, (counts = noRecords()));
      this.lastSession = sessionId;
      this.lastSessionCounts = counts;
      countOutcome(counts, ok);
    }
  }

  /** One failure of `category`, counted once what came next is known: `next`, the next call's tool. */
  addRecovery(category: string, what: RecoveryCount, next: string | undefined): void {
    let row = this.recovery.get(category);
    if (!row) this.recovery.set(category, (row = noRecovery()));
    row.failures++;
    row[what]++;
    if (next !== undefined) row.next.set(next, (row.next.get(next) ?? 0) + 1);
  }

  addUnparseable(): void {
    this.unparseable++;
  }

  addSkipped(kind: { protocolError?: boolean; truncated?: boolean } = {}): void {
    this.skipped++;
    if (kind.protocolError) this.protocolErrors++;
    if (kind.truncated) this.truncated++;
  }

  /** The counts of the records seen. Inputs and findings are the run's to count (after baselines). */
  summary(): Summary {
    // In the schema's enum order: the order the Map was filled in; by name when the schema has none.
    const categories = this.open ? byKey(plain(this.categories)) : Object.fromEntries(plain(this.categories));
    const codes = plain(this.codes);
    const warningCodes = plain(this.warningCodes);
    const unknown = (map: Map<string, number>, known: (code: string) => boolean) =>
      new Map([...map].filter(([code]) => !known(code)));
    return {
      inputs: 0,
      records: this.records,
      valid: this.records - this.invalid,
      invalid: this.invalid,
      unparseable: this.unparseable,
      skipped: this.skipped,
      errors: 0,
      warnings: 0,
      protocolErrors: this.protocolErrors,
      truncated: this.truncated,
      outcomes: { ok: this.ok, failed: this.failed, unknown: this.unknown },
      categories,
      invalidCategories: sortedCounts(plain(this.invalidCategories)),
      codes: sortedCounts(codes),
      unknownCodes: sortedCounts(unknown(codes, (c) => this.registry.isKnownErrorCode(c))),
      warningCodes: sortedCounts(warningCodes),
      unknownWarningCodes: sortedCounts(unknown(warningCodes, (c) => this.registry.isKnownWarningCode(c))),
      ...(this.tools.size > 0 && { tools: byKey(this.tools) }),
      ...(this.sessions.size > 0 && { sessions: byKey(this.sessions) }),
      ...(this.recovery.size > 0 && { recovery: recoveryTable(this.recovery, this.open ? [] : [...this.categories.keys()]) }),
    };
  }
}

// Sums go into Maps, not objects: a distribution can have as many keys as there are records
// (an id in every code), and an object of that many keys is slow to fill, list and re-sort.
function addCounts(into: Map<string, number>, from: Record<string, number>): void {
  for (const key of Object.keys(from)) into.set(key, (into.get(key) ?? 0) + from[key]!);
}

const scalarKeys = ['inputs', 'records', 'valid', 'invalid', 'unparseable', 'skipped', 'errors', 'warnings', 'protocolErrors', 'truncated'] as const;
const countKeys = ['invalidCategories', 'codes', 'unknownCodes', 'warningCodes', 'unknownWarningCodes'] as const;

/**
 * Sums the summaries of parts of a run (inputs, byte ranges of one file, shards) into the summary one
 * pass over everything gives: distributions are re-sorted, categories keep the first part\'s enum order
 * (or, of a schema without one, are listed by name).
 */
export function mergeSummaries(summaries: readonly Summary[]): Summary {
  const merged: Summary = {
    inputs: 0, records: 0, valid: 0, invalid: 0, unparseable: 0, skipped: 0, errors: 0, warnings: 0, protocolErrors: 0, truncated: 0,
    outcomes: { ok: 0, failed: 0, unknown: 0 },
    categories: {}, invalidCategories: {}, codes: {}, unknownCodes: {}, warningCodes: {}, unknownWarningCodes: {},
  };
  const categories = new Map<string, number>();
  const counts = new Map(countKeys.map((key) => [key, new Map<string, number>()]));
  const tools = new Map<string, ToolCounts>();
  const sessions = new Map<string, SessionCounts>();
  const recovery = new Map<string, RecoverySums>();
  let interrupted = false;
  const unreadable: NonNullable<Summary['unreadable']> = [];
  let baseline: Summary['baseline'];
  for (const summary of summaries) {
    if (summary.interrupted) interrupted = true;
    // A missing input named to every shard fails in each: the merge reports it once.
    for (const failure of summary.unreadable ?? []) if (!unreadable.some((u) => u.source === failure.source && u.message === failure.message)) unreadable.push(failure);
    for (const key of scalarKeys) merged[key] += summary[key];
    for (const key of ['ok', 'failed', 'unknown'] as const) merged.outcomes[key] += summary.outcomes[key];
    // Category order is the schema's enum order, which the first report gives.
    addCounts(categories, summary.categories);
    for (const key of countKeys) addCounts(counts.get(key)!, summary[key]);
    for (const [name, t] of Object.entries(summary.tools ?? {})) {
      let into = tools.get(name);
      if (!into) tools.set(name, (into = noRecords()));
      addOutcomes(into, t);
    }
    for (const [id, s] of Object.entries(summary.sessions ?? {})) {
      let into = sessions.get(id);
      if (!into) sessions.set(id, (into = noRecords()));
      addOutcomes(into, s);
    }
    // A report written before spec section 9 has no table, and adds nothing to it.
    for (const [category, row] of Object.entries(summary.recovery ?? {})) addRecoveryRow(recovery, category, row);
    if (summary.baseline) {
      baseline ??= { suppressed: 0, stale: 0 };
      baseline.suppressed += summary.baseline.suppressed;
      baseline.stale += summary.baseline.stale;
    }
  }
  // Every part of a schema with a category enum lists all of it; parts that list different names
  // were checked against a schema with none, and list theirs by name.
  const first = summaries[0] === undefined ? 0 : Object.keys(summaries[0].categories).length;
  merged.categories = categories.size > first ? byKey(categories) : Object.fromEntries(categories);
  for (const key of countKeys) merged[key] = sortedCounts(counts.get(key)!);
  if (tools.size > 0) merged.tools = byKey(tools);
  if (sessions.size > 0) merged.sessions = byKey(sessions);
  // The categories' order is the schema's enum order (or by name), as the merged categories have it.
  if (recovery.size > 0) merged.recovery = recoveryTable(recovery, Object.keys(merged.categories));
  // A shard stopped by Ctrl-C leaves the whole incomplete.
  if (interrupted) merged.interrupted = true;
  if (unreadable.length > 0) merged.unreadable = unreadable;
  // Last, where a baseline run puts it, so that merging one report writes check's JSON byte for
  // byte.
  if (baseline) merged.baseline = baseline;
  return merged;
}

/** The nearest known code of every unknown code of a summary, where one is close. */
export function suggestionsFor(summary: Summary, registry: CodeRegistry): Report['suggestions'] {
  const suggest = (codes: Record<string, number>, nearest: (code: string) => string | undefined) => {
    // Entries, not assignments: a code is data, and `out["__proto__"] = ...` would not make a key.
    const out: [string, string][] = [];
    for (const code of Object.keys(codes).sort()) {
      const suggestion = nearest(code);
      if (suggestion !== undefined) out.push([code, suggestion]);
    }
    return Object.fromEntries(out);
  };
  return {
    codes: suggest(summary.unknownCodes, (c) => registry.nearestErrorCode(c)),
    warningCodes: suggest(summary.unknownWarningCodes, (c) => registry.nearestWarningCode(c)),
  };
}

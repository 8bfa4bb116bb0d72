// The pipeline, end to end: sources -> units of work (whole inputs, or byte ranges of a large file)
// -> framing -> unwrap -> checks -> tally, on this thread or on worker threads -> one Report.
// Results are put together in input and range order, so the report is the same for any --jobs.
// Nothing here prints; the CLI decides what to do with the report.
import { fstatSync, stat } from 'node:fs';
import { setImmediate as macrotask } from 'node:timers/promises';
import { availableParallelism } from 'node:os';
import { packageVersion } from './assets.js';
import { checkUnit, type Unit, type UnitIo, type UnitOptions, type UnitResult } from './check-unit.js';
import { chosenParser } from './framing/parser.js';
import { ruleFinding, type CheckContext } from './checks/check-envelope.js';
import { UsageError } from './errors.js';
import { got } from './option-checks.js';
import { assertCheckOptions, assertInputs, conflictsWithContext, createCheckContext, isCheckContext, type CheckOptions, type OwnFile } from './context.js';
import { ConcatList, RunFolder, SpillBudget, StoredList, heldFindings, storedCount } from './findings/store.js';
import { RecordTexts } from './findings/record-text.js';
import { planUnits, type Plan } from './parallel/plan.js';
import { expandInputs } from './sources/expand.js';
import type { InputSource } from './sources/input-source.js';
import { Tally, mergeSummaries, suggestionsFor } from './tally.js';
import type { Finding, InputFailure, Progress, Report, Summary } from './types.js';
import { addEntryKinds, noToolResults } from './tool-results.js';
import { fingerprint } from './fingerprint.js';
import { byCodePoint } from './findings/order.js';
import { threadsStarted } from './v8-tuning.js';
import { bundleFindings, type TranscriptFacts } from './bundle-checks.js';
import type { LiveRun } from './live.js';

export { createCheckContext, type CheckOptions, type OwnFile, type RunProgress } from './context.js';

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** How long this thread checks inputs on its own before signals get a turn. */
const signalWithinMs = 20;

/** Asked for (`jobs` given), workers start for this much input or more: they pay for their start. */
const parallelBytes = 8 * 1024 * 1024;

/**
 * Unasked, only for 128 MiB of input divided by the threads or more, never below `parallelBytes`.
 * A worker becomes useful only a while after it is made (Node's bootstrap of it, then the JIT
 * compiling the same hot code again, both slow while this thread and its compiler keep the cores
 * busy), and two threads on two cores each check slower than one alone, so a worker pays off only
 * on a large input (`npm run bench`, docs/performance.md). With more cores a worker's start weighs
 * the same against a smaller share, and the cores are less contended: by this rule 16 threads start
 * at `parallelBytes`. The bench measures two cores only.
 */
export function defaultParallelBytes(threads: number): number {
  return Math.max(parallelBytes, Math.floor((128 * 1024 * 1024) / threads));
}

/**
 * Spec sections 7 and 8.2: units sorted by path, the k-th (0-based) goes to shard (k mod n) + 1. A
 * unit is a file outside any bundle, a bundle folder or a zip: a bundle is never split.
 */
export function inShard(sources: readonly InputSource[], shard: { index: number; count: number }): InputSource[] {
  const units = [...new Set(sources.map((s) => s.unit ?? s.name))].sort(byCodePoint);
  const mine = new Set(units.filter((_, k) => (k % shard.count) + 1 === shard.index));
  return sources.filter((s) => mine.has(s.unit ?? s.name));
}

/** Each bundle's transcripts as read by the run, for the cross-checks of its session.json. */
function transcriptsByBundle(units: readonly Unit[], results: readonly (UnitResult | undefined)[]): Map<string, TranscriptFacts[]> {
  const byBundle = new Map<string, TranscriptFacts[]>();
  units.forEach((unit, u) => {
    const facts = results[u]?.bundle?.transcript;
    const key = unit.source.bundle?.key;
    if (facts === undefined || key === undefined || results[u]?.interrupted) return;
    byBundle.set(key, [...(byBundle.get(key) ?? []), facts]);
  });
  return byBundle;
}

/** session.json's findings: the bundle's cross-checks, or its lack of a transcript (spec section 8.2). */
function sessionFindings(source: InputSource, parts: readonly UnitResult[], transcripts: ReadonlyMap<string, TranscriptFacts[]>, context: CheckContext, fingerprints: boolean): StoredList | undefined {
  const facts = parts[0]?.bundle?.session;
  if (facts === undefined || source.bundle === undefined) return undefined;
  const found = bundleFindings(context, source.name, facts, source.bundle.noTranscript ? 'none' : (transcripts.get(source.bundle.key) ?? []));
  if (found.length === 0) return undefined;
  // Baselines match them by rule and source: there is one of each a bundle.
  if (fingerprints) for (const finding of found) finding.fingerprint = '';
  return new StoredList({ head: heldFindings(found), unsorted: [], spooled: 0, errors: found.filter((f) => f.severity === 'error').length });
}

/**
 * What a unit is checked with. The context decides the schema, codes, rules and redaction, and a
 * caller's own context may have been made from other options than these: workers make theirs from
 * what is posted here, and framing reads `redact`, so both are the context's (a worker checked with
 * the bundled schema, and framing quoted raw text, under a caller's schema or redacting context).
 */
function unitOptions(options: CheckOptions, context: CheckContext): UnitOptions {
  const { stdin: _stdin, signal: _signal, shard: _shard, jobs: _jobs, stdinFilename: _name, onProgress: _onProgress, strictCodes: _strict, ...rest } = options;
  const { schema: _schema, schemaVersion: _version, codes: _codes, rules: _rules, redact: _redact, ...run } = rest;
  return {
    ...run,
    ...(context.schema.source !== 'bundled' && { schema: context.schema.source }),
    ...(context.schema.version !== undefined && { schemaVersion: context.schema.version }),
    ...(context.codes && context.codes.length > 0 && { codes: [...context.codes] }),
    // Every rule's severity, resolved: strictCodes is in them.
    rules: { ...context.severities },
    redact: context.redact,
    parser: chosenParser(),
  };
}

interface RunResults {
  /** In unit order; undefined for a unit not run (Ctrl-C). */
  results: (UnitResult | undefined)[];
  summaries: Summary[];
}

/**
 * A file is split only when its start looks like bare envelopes; if a range met JSON-RPC messages
 * after all, their pairing spans ranges, so that file is checked again whole (rare, and correct).
 */
async function recheckPairedRanges(units: readonly Unit[], results: (UnitResult | undefined)[], options: CheckOptions, context: CheckContext, folder: RunFolder): Promise<void> {
  for (let u = 0; u < units.length; u++) {
    const { source, range } = units[u]!;
    if (range?.index !== 0) continue;
    let last = u;
    while (last + 1 < units.length && units[last + 1]!.source === source) last++;
    if (!results.slice(u, last + 1).some((r) => r?.paired) || options.signal?.aborted) continue;
    results[u] = await checkUnit({ source }, context, unitOptions(options, context), { budget: new SpillBudget(options.findingsInMemory, () => folder.path), ...(options.signal && { signal: options.signal }) });
    for (let k = u + 1; k <= last; k++) results[k] = undefined;
  }
}

/**
 * After Ctrl-C, a byte range whose file's earlier ranges were not all read whole cannot be placed:
 * its line numbers would start at the wrong line. It is left out, counts and all (threads take
 * ranges in any order, so a later one may be done while an earlier one is not).
 */
export function dropUnplaceable(units: readonly Unit[], results: (UnitResult | undefined)[]): void {
  for (let u = 1; u < units.length; u++) {
    const before = results[u - 1];
    if ((units[u]!.range?.index ?? 0) > 0 && (before === undefined || before.interrupted)) results[u] = undefined;
  }
}

/**
 * Workers pay for their start and for sending results back; small runs are faster on this thread.
 * Standard input and a FIFO are read here, where Ctrl-C can end a wait for their writer.
 */
function runsInline({ units, estimated }: Plan, jobs: number, asked: boolean): boolean {
  return units.some((u) => u.source.path === undefined || u.source.special) || jobs < 2 || units.length < 2 || estimated < (asked ? parallelBytes : defaultParallelBytes(jobs));
}

/**
 * The run's units, and whether they stay on this thread. Byte ranges are for workers: a run that
 * stays here reads each file whole, and keeps the sizes learnt (the progress line's total, and
 * whether the run is long enough for V8's tuning).
 */
export function planRun(sources: readonly InputSource[], jobs: number, options: Pick<CheckOptions, 'jobs' | 'input'>): { plan: Plan; inline: boolean } {
  const plan = planUnits(sources, jobs, options.input ?? 'auto');
  if (!runsInline(plan, jobs, options.jobs !== undefined)) return { plan, inline: false };
  if (!plan.units.some((u) => u.range)) return { plan, inline: true };
  return { plan: { ...planUnits(sources, 1, options.input ?? 'auto'), bytes: plan.bytes, unsized: plan.unsized, estimated: plan.estimated }, inline: true };
}

/**
 * The bytes of the units' inputs, stat'ed on the thread pool: the plan stats only the files it may
 * split and a sample of the rest (none on one thread: a stat each weighs on many small files), but a
 * progress line without a total says nothing of how far the run is. Undefined when an input has no
 * size to give (standard input, a FIFO) or cannot be stat'ed (its unit says why).
 */
export async function inputBytes(units: readonly Unit[]): Promise<number | undefined> {
  const sources = [...new Set(units.map((unit) => unit.source))];
  if (sources.some((source) => source.path === undefined || source.special)) return undefined;
  try {
    // node:fs's callback form: node:fs/promises is more for every start to load (the bundle defers it).
    // A zip's entries are one file to stat (spec section 8.2).
    const paths = [...new Set(sources.map((source) => source.path!))];
    const sizes = await Promise.all(paths.map((path) => new Promise<number>((resolve, reject) => stat(path, (error, stats) => (error ? reject(error) : resolve(stats.size))))));
    return sizes.reduce((sum, size) => sum + size, 0);
  } catch {
    return undefined;
  }
}

async function runUnits(plan: Plan, inline: boolean, jobs: number, options: CheckOptions, context: CheckContext, folder: RunFolder, live?: LiveRun): Promise<RunResults> {
  const { units, sizes } = plan;
  const progress: Progress | undefined = options.onProgress ? { bytes: 0, entries: 0, findings: 0 } : undefined;
  // Without every size there is no total to show a share of: those the plan did not learn are
  // asked for while the run goes on (0, no total, until they come).
  let totalBytes = plan.unsized > 0 ? 0 : plan.bytes;
  const sized = progress && plan.unsized > 0 ? inputBytes(units).then((bytes) => (totalBytes = bytes ?? 0)) : undefined;
  const started = Date.now();
  // A caller's callback that throws, on a timer, would be an uncaught exception that ends the
  // process: it stops being called instead, and check() rejects with its error once the run is over.
  // So does an async one whose promise rejects (an unhandled rejection).
  let progressError: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    progressError ??= { error };
    clearInterval(timer);
  };
  const timer =
    progress &&
    setInterval(() => {
      if (progressError) return;
      try {
        const returned: unknown = options.onProgress!({ ...progress, totalBytes, elapsedMs: Date.now() - started });
        if (isThenable(returned)) returned.then(undefined, fail);
      } catch (error) {
        fail(error);
      }
    }, 250);
  // Once more when the run is over, every count in (the workers' too) and the total known: a
  // caller's bar ends where the run did, however short the run.
  const finalProgress = async () => {
    if (!progress || progressError) return;
    clearInterval(timer);
    await sized;
    try {
      const returned: unknown = options.onProgress!({ ...progress, totalBytes, elapsedMs: Date.now() - started });
      if (isThenable(returned)) await returned;
    } catch (error) {
      fail(error);
    }
  };
  // This thread's tally and findings budget, whether it works alone or beside workers.
  const perUnit = unitOptions(options, context);
  const tally = new Tally(context.schema.categories, context.registry);
  const budget = new SpillBudget(options.findingsInMemory, () => folder.path);
  const texts = new RecordTexts();
  try {
    if (!inline) {
      const { runOnWorkers } = await import('./parallel/pool.js');
      const io = { budget, texts, ...(options.signal && { signal: options.signal }), ...(progress && { progress }) };
      // A byte range is counted on its own: the run drops its counts if it checks the file again whole.
      const local = (unit: Unit) => checkUnit(unit, context, perUnit, unit.range ? io : { ...io, tally });
      const { results, summaries } = await runOnWorkers(units, sizes, jobs, perUnit, local, () => folder.path, options.signal, progress, (result) => budget.adopt(result.findings));
      const placed = [...results];
      dropUnplaceable(units, results);
      await recheckPairedRanges(units, results, options, context, folder);
      // Held against this thread's budget, a dropped result's findings would be spilled for nobody.
      placed.forEach((result, u) => {
        if (result && result !== results[u]) budget.drop(result.findings);
      });
      await finalProgress();
      // This thread's tally first: it lists the categories in the schema's order.
      return { results, summaries: [tally.summary(), ...summaries, ...results.flatMap((r) => (r?.summary ? [r.summary] : []))] };
    }
    // A long run kept here gains from V8's higher shape limit (src/v8-tuning.ts). A short one would
    // only lose start-up to it, and the build's warm-up run would write a code cache that V8, which
    // checks a cache against the flags it was made under, would then refuse at every start.
    if (plan.estimated >= parallelBytes) threadsStarted();
    const results: UnitResult[] = [];
    const io = { tally, budget, texts, ...(options.stdin && { stdin: options.stdin }), ...(options.signal && { signal: options.signal }), ...(progress && { progress }) };
    // Date.now(), not performance.now(): the global `performance` loads perf_hooks and ten modules
    // behind it, on every start.
    let turned = Date.now();
    for (const unit of units) {
      if (options.signal?.aborted) break;
      results.push(await (live ? checkLive(unit, context, perUnit, io, live) : checkUnit(unit, context, perUnit, io)));
      // A small file is checked synchronously, and its promise settles without a macrotask turn:
      // one now and then lets Ctrl-C be delivered between files.
      if (Date.now() - turned >= signalWithinMs) {
        await macrotask();
        turned = Date.now();
      }
    }
    await finalProgress();
    return { results, summaries: [tally.summary()] };
  } finally {
    if (timer) clearInterval(timer);
    // The caller's own error, rather than a report of a run whose progress it could not follow.
    if (progressError) throw progressError.error;
  }
}

/**
 * A unit of a run whose output is written as it goes (spec section 8.10): a streamed input's findings
 * handed over as they become final, any other's when it is done. Such a run stays on this thread,
 * each input one unit, so they come in command-line order.
 */
async function checkLive(unit: Unit, context: CheckContext, perUnit: UnitOptions, io: UnitIo, live: LiveRun): Promise<UnitResult> {
  const { observer } = live;
  const name = unit.source.name;
  const streams = observer.streams(unit.source);
  const result = await checkUnit(unit, context, perUnit, {
    ...io,
    ...(streams && { live: { findings: (batch) => observer.findings(name, batch), restart: (reason) => observer.restart(name, reason), following: (line) => observer.following(name, line), ...(live.follow && { follow: live.follow }) } }),
  });
  if (result.streamed) observer.inputDone(name, [], (result.earlier ?? []).find((stored) => stored.hint !== undefined)?.hint ?? result.findings.hint);
  else observer.inputDone(name, new ConcatList([...(result.earlier ?? []), result.findings].map((stored) => new StoredList(stored))), undefined);
  return result;
}

/** One input's findings from its units: lines shifted past earlier ranges, the empty and hint rules applied. */
function assembleInput(source: InputSource, parts: readonly UnitResult[], context: CheckContext): { findings: StoredList[]; failures: InputFailure[]; extractHint: boolean } {
  const findings: StoredList[] = [];
  const failures: InputFailure[] = [];
  let lineOffset = 0;
  let entries = 0;
  const offsets: number[] = [];
  // Spec section 7: the input's first parse error that looks like a pretty-printed value says so.
  // The prefix hint (spec section 8.8) only on the input's first parse error: a later byte range's
  // first is hinted by its own framing, which cannot know of an earlier range's.
  let hinted = false;
  let extractHint = false;
  let parseErrorBefore = false;
  for (const part of parts) {
    // A followed file's earlier readings come first, their lines their own.
    for (const stored of [...(part.earlier ?? []), part.findings]) {
      const { hintAt, hint, firstParseError } = stored;
      const wordHint: boolean = !hinted && hintAt !== undefined && (hint !== 'prefix' || !parseErrorBefore);
      hinted ||= wordHint;
      parseErrorBefore ||= firstParseError !== undefined;
      extractHint ||= wordHint && hint === 'prefix';
      // Most inputs of a folder have none, and get no list to make and walk.
      if (storedCount(stored) > 0) findings.push(new StoredList(stored, { lineOffset, wordHint }));
    }
    offsets.push(lineOffset);
    lineOffset += part.lines;
    entries += part.entries;
    // Ranges of a file that changed under them each fail the same way: said once.
    if (part.failure && !failures.some((f) => f.message === part.failure!.message)) failures.push(part.failure);
  }
  if (parts.length > 1 && entries === 0 && failures.length === 0) {
    const empty = ruleFinding(context, 'empty-input', { message: 'the input holds no record' });
    if (empty) {
      const finding: Finding = { rule: empty.rule, severity: empty.severity, message: empty.message, location: { source: source.name, line: 1 } };
      findings.push(new StoredList({ head: heldFindings([finding]), unsorted: [], spooled: 0, errors: empty.severity === 'error' ? 1 : 0 }));
    }
  }
  // A range never reports the whole input without tool results: their sum does. At the input's first
  // entry, so before every other finding of an input that has no record.
  const kinds = parts.length > 1 && failures.length === 0 && !parts.some((part) => part.interrupted) ? addEntryKinds(parts.map((part) => part.kinds), offsets) : undefined;
  const none = kinds && noToolResults(context, kinds);
  if (none) {
    // Fingerprinted as a whole input's finding is (check-unit.ts), so that a baseline matches it for any split.
    const finding: Finding = { rule: none.rule, severity: none.severity, message: none.message, location: { source: source.name, line: kinds!.firstLine! }, fingerprint: fingerprint('no-tool-results') };
    findings.unshift(new StoredList({ head: heldFindings([finding]), unsorted: [], spooled: 0, errors: none.severity === 'error' ? 1 : 0 }));
  }
  return { findings, failures, extractHint };
}

/** The threads a run may use: `jobs`, or the cores available. */
export function threadsFor(options: Pick<CheckOptions, 'jobs'>): number {
  return Math.max(1, options.jobs ?? availableParallelism());
}

/** Checks every input and returns the finished report (spec section 6). */
export async function check(inputs: readonly string[], options: CheckOptions = {}, given?: CheckContext, live?: LiveRun): Promise<Report> {
  assertInputs(inputs);
  // createCheckContext checks the options; a caller's own context was made without seeing these.
  if (given !== undefined) {
    // A context not made by createCheckContext() is refused here, not met deep inside.
    if (!isCheckContext(given)) throw new UsageError(`check(): the third argument is a context made by createCheckContext(), got ${got(given)}`);
    assertCheckOptions(options);
    // The context decides these: one that differs is refused, not ignored (checks.test.ts,
    // 'beside a context of its own, the options that shape a context are refused, not dropped').
    const shaping = conflictsWithContext(options, given);
    if (shaping.length > 0) throw new UsageError(`check(): ${shaping.join(', ')} differ${shaping.length === 1 ? 's' : ''} from the context given, which decides ${shaping.length === 1 ? 'it' : 'them'}: pass the same options to createCheckContext(), or leave ${shaping.length === 1 ? 'it' : 'them'} out here`);
  }
  const context = given ?? createCheckContext(options);
  // Read only for `-`: given without it, the caller's records would never be looked at.
  if (options.stdin !== undefined && !inputs.includes('-')) throw new UsageError("check options: stdin is read as the input -, which the inputs do not name: add '-' to them");
  // The context's files are the run's own, as the command line's are: a folder that holds the schema
  // or a codes file beside the logs does not check them as envelopes, here as there.
  const contextFiles: OwnFile[] = [
    ...(context.schema.source === 'bundled' ? [] : [{ path: context.schema.source, role: 'the schema', written: false }]),
    ...(context.codes ?? []).map((path): OwnFile => ({ path, role: 'the codes file', written: false })),
    ...(context.schema.referencedFiles ?? []).map((path): OwnFile => ({ path, role: 'a file the schema refers to', written: false })),
  ];
  const expanded = await expandInputs(inputs, options.stdinFilename ?? '-', [...(options.ownFiles ?? []), ...contextFiles]);
  const failures = [...expanded.failures];
  const sources = options.shard ? inShard(expanded.sources, options.shard) : expanded.sources;
  const jobs = threadsFor(options);
  // A live run goes input by input on this thread; a followed file is one unit, never split.
  const { plan, inline } = live ? { plan: { ...planRun(sources, 1, options).plan, ...(live.follow && { units: sources.map((source) => ({ source })), sizes: sources.map(() => 0) }) }, inline: true } : planRun(sources, jobs, options);
  // Findings past the memory budget are spooled in here until the report is gone.
  const folder = new RunFolder();
  let ran: RunResults;
  try {
    ran = await runUnits(plan, inline, jobs, options, context, folder, live);
  } catch (error) {
    // No report will read the spool: a process that checks again and again would keep every failed run's.
    folder.remove();
    throw error;
  }
  const { results, summaries } = ran;

  const findings: StoredList[] = [];
  const read: string[] = [];
  /** Inputs whose lines look like log lines with a prefix (spec section 8.8): the human summary says to use --extract. */
  const extractHints: string[] = [];
  let checked = 0;
  const transcripts = transcriptsByBundle(plan.units, results);
  for (let u = 0; u < plan.units.length; ) {
    const source = plan.units[u]!.source;
    const parts: UnitResult[] = [];
    // Units of one input are adjacent; after Ctrl-C some may be missing, and the report covers the rest.
    for (; u < plan.units.length && plan.units[u]!.source === source; u++) {
      const result = results[u];
      if (result) parts.push(result);
    }
    if (parts.length === 0) continue;
    // An input that could not be read at all is in `unreadable` only, as one that is missing is.
    if (!parts.every((part) => part.unread)) checked++;
    const assembled = assembleInput(source, parts, context);
    findings.push(...assembled.findings);
    const ofSession = source.bundle?.role === 'session' ? sessionFindings(source, parts, transcripts, context, options.fingerprints === true) : undefined;
    if (ofSession) findings.push(ofSession);
    failures.push(...assembled.failures);
    if (assembled.extractHint) extractHints.push(source.name);
    if (assembled.failures.length === 0 && !parts.some((part) => part.interrupted)) read.push(source.name);
  }

  // One tally's summary is sorted already; merging it would only copy every distribution.
  const summary = summaries.length === 1 ? summaries[0]! : mergeSummaries(summaries);
  if (summaries.length === 0) summary.categories = Object.fromEntries(context.schema.categories.map((c) => [c, 0]));
  const list = new ConcatList(findings);
  folder.releaseWith(list);
  let errors = 0;
  for (const part of findings) errors += part.errors;
  summary.inputs = checked;
  summary.errors = errors;
  summary.warnings = list.length - errors;
  // Said in the report itself: saved to a file, it is read long after the exit status is gone. Only
  // when the abort cut something short: one that comes as the last input is checked (during one
  // long synchronous stretch) leaves a whole report. A pipe may have been: Ctrl-C in a terminal ends
  // every process of a pipeline, and the writer's end comes here as the end of the input (`cat
  // run.jsonl | mcec-result check -`), so a piped input's report is never taken for whole.
  const piped = plan.units.some((unit) => endsUnknown(unit.source, options.stdin !== undefined));
  const interrupted = options.signal?.aborted === true && (piped || plan.units.some((_, u) => results[u] === undefined || results[u]!.interrupted === true));
  if (interrupted) summary.interrupted = true;
  if (failures.length > 0) summary.unreadable = failures;
  return {
    reportVersion: 1,
    tool: { name: 'mcec-result', version: packageVersion() },
    schema: reportSchema(context.schema),
    summary,
    findings: list,
    suggestions: suggestionsFor(summary, context.registry),
    inputFailures: failures,
    ...(expanded.notes.length > 0 && { notes: expanded.notes }),
    inputsRead: read,
    ...(extractHints.length > 0 && { extractHints }),
    ...(options.recordText === true && { recordText: context.redact ? ('redacted' as const) : ('kept' as const) }),
    interrupted,
    piped,
  };
}

/** The report's `schema` object (spec sections 6 and 8.3). */
function reportSchema(schema: CheckContext['schema']): Report['schema'] {
  return {
    ...(schema.id !== undefined && { id: schema.id }),
    source: schema.source,
    ...(schema.version !== undefined && { version: schema.version }),
    ...(schema.sha256 !== undefined && { sha256: schema.sha256 }),
  };
}

/** An input read from a pipe or a device, whose end does not say it was read whole. */
function endsUnknown(source: InputSource, callerStdin: boolean): boolean {
  if (source.special) return true;
  if (source.path !== undefined) return false;
  if (callerStdin) return true;
  try {
    return !fstatSync(0).isFile();
  } catch {
    return true;
  }
}

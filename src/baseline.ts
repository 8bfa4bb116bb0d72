// Baselines (issue 4): adopt the checker on a large existing corpus and ratchet. --write-baseline
// records today's findings; --baseline reports only the findings not in it. A finding is matched by
// rule, source, tool, code, pointer and a fingerprint of its record, never by line number, so
// inserting lines does not break a baseline. Matching counts: two identical findings need two entries.
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, posix, relative, resolve } from 'node:path';
import { UsageError, describeError } from './errors.js';
import { readValidatedJsonFile } from './load-json.js';
import { WriteInterrupted, standardStream, writeReportFile } from './output.js';
import { FilteredList } from './findings/store.js';
import { streamJson, streamedArray } from './formatters/common.js';
import { redactPointer } from './redact.js';
import { unversionedSchemaVersion } from './checks/schema-versions.js';
import type { Finding, Report } from './types.js';

export interface BaselineEntry {
  rule: string;
  source: string;
  tool?: string;
  code?: string;
  pointer?: string;
  fingerprint: string;
  count: number;
  message?: string;
}

/** What a baseline written since sources are kept relative to its folder says of them. */
const relativeToFile = 'relative to this file';

export interface Baseline {
  baselineVersion: 1;
  tool?: string;
  /** Absent in a baseline written before: its sources are relative to the working directory of its run. */
  sources?: typeof relativeToFile;
  /** The bundled schema version of the run that recorded it (spec section 8.3); absent: 2026-06, or a --schema run's. */
  schemaVersion?: string;
  findings: BaselineEntry[];
}

/**
 * The one line a run says when its schema version is not the baseline's (spec section 8.3), or
 * undefined when they agree. A baseline without a version was recorded against 2026-06 (or a
 * --schema file, which no version tells apart: a --schema run says nothing of such a baseline).
 */
export function schemaVersionNote(baseline: Baseline, path: string, runVersion: string | undefined): string | undefined {
  if (runVersion === undefined && baseline.schemaVersion === undefined) return undefined;
  const recorded = baseline.schemaVersion ?? unversionedSchemaVersion;
  if (recorded === runVersion) return undefined;
  const run = runVersion === undefined ? 'a --schema file' : `schema version ${runVersion}`;
  return `baseline ${path} was recorded with schema version ${recorded}${baseline.schemaVersion === undefined ? ' (it names none)' : ''}, this run checks against ${run}: findings of categories only one of them has may show as new or stale`;
}

/** The folder a baseline's entries are relative to: its own, or for an older one the working directory. */
function entriesFolder(baseline: Baseline, folder: string): string {
  return baseline.sources === relativeToFile ? folder : process.cwd();
}

type Identity = Omit<BaselineEntry, 'count' | 'message'>;

function identity(finding: Finding): Identity {
  return {
    rule: finding.rule,
    source: finding.location.source,
    ...(finding.tool !== undefined && { tool: finding.tool }),
    ...(finding.code !== undefined && { code: finding.code }),
    ...(finding.location.pointer !== undefined && { pointer: finding.location.pointer }),
    fingerprint: finding.fingerprint ?? '',
  };
}

/**
 * An input in one spelling, relative to the baseline's folder `base`: `check .` names a file
 * `./a.jsonl`, `check a.jsonl` `a.jsonl`, Windows `.\a.jsonl`, `check "$PWD/a.jsonl"` (as CI scripts
 * write it) `/work/repo/a.jsonl`, and a run from a subfolder (the config found upward names the
 * baseline) `a.jsonl` for the root's `evidence/a.jsonl`: one key for all, so that a baseline
 * recorded one way matches the other way too. `from` is the folder `source` is relative to: the
 * working directory for a finding, the baseline's folder for its entries. Relative to the
 * baseline, it matches on another machine too.
 */
function keyed(source: string, from: string, base: string): string {
  // Standard input is no file, wherever the baseline is.
  if (source === '-') return source;
  const absolute = physical(resolve(from, source.replaceAll('\\', '/')));
  const inBase = relative(physicalFolder(base), absolute);
  // Another drive (Windows) has no relative path.
  return posix.normalize((isAbsolute(inBase) ? absolute : inBase).replaceAll('\\', '/'));
}

const physicalFolders = new Map<string, string>();

/**
 * A folder as the file system names it, its links followed: the working directory is (Node's cwd),
 * while `$PWD` is the shell's spelling. Through a linked folder (`cd link`, a CI workspace, macOS's
 * /tmp), `check "$PWD/logs"` would name its files `../link/logs/a.jsonl` and `check logs`
 * `logs/a.jsonl`, and the baseline one wrote would match nothing in the other. A folder
 * that is not there (an entry's input since removed) keeps the part that is missing as written.
 */
function physicalFolder(folder: string): string {
  let known = physicalFolders.get(folder);
  if (known === undefined) {
    try {
      known = realpathSync.native(folder);
    } catch {
      const parent = dirname(folder);
      known = parent === folder ? folder : join(physicalFolder(parent), basename(folder));
    }
    if (physicalFolders.size < 10_000) physicalFolders.set(folder, known);
  }
  return known;
}

/** An input's path with its folders' links followed (not its own: a linked file is named as given). */
function physical(absolute: string): string {
  return join(physicalFolder(dirname(absolute)), basename(absolute));
}

/**
 * keyed(), remembered for the last source: findings and entries come input by input, so a run of
 * them resolves its path once rather than once a finding.
 */
function sourcesKeyed(base: string, from = process.cwd()): (source: string) => string {
  // Links found in an earlier run (a library process) may point elsewhere now.
  physicalFolders.clear();
  let last: string | undefined;
  let key = '';
  return (source) => {
    if (source !== last) (key = keyed(source, from, base)), (last = source);
    return key;
  };
}

function keyOf(entry: Omit<Identity, 'source'>, source: string): string {
  return JSON.stringify([entry.rule, source, entry.tool ?? null, entry.code ?? null, entry.pointer === undefined ? null : redactPointer(entry.pointer), entry.fingerprint]);
}

/**
 * The folder a baseline file's sources are relative to: its own; the working directory for standard
 * input, and for a pipe named by a path, which is in no folder of the run's (`--baseline <(git show
 * main:b.json)`: relative to /dev/fd, its sources would name no input the run reads, every finding
 * new, no entry stale, and nothing to say so).
 */
export function baselineFolder(path: string | undefined): string {
  if (path !== undefined && statSync(path, { throwIfNoEntry: false })?.isFile() === false) return process.cwd();
  return writtenFolder(path) ?? process.cwd();
}

/**
 * The folder a baseline written to `path` will be in, or undefined for standard output (`-`, and
 * `/dev/stdout` by its name, whose sources would otherwise be relative to /dev): where that lands is the
 * shell's, so its sources stay relative to the working directory, as a baseline without `sources` says.
 */
export function writtenFolder(path: string | undefined): string | undefined {
  return path === undefined || standardStream(path) !== undefined ? undefined : dirname(resolve(path));
}

export function createBaseline(findings: Iterable<Finding>, folder: string | undefined, schemaVersion?: string): Baseline {
  const base = folder ?? process.cwd();
  const entries = new Map<string, BaselineEntry>();
  const sourceOf = sourcesKeyed(base);
  for (const finding of findings) {
    const id = identity(finding);
    const source = sourceOf(id.source);
    const key = keyOf(id, source);
    const entry = entries.get(key);
    if (entry) entry.count++;
    else entries.set(key, { ...id, source, count: 1, message: finding.message });
  }
  return baselineOf(entries, folder, schemaVersion);
}

function baselineOf(entries: Map<string, BaselineEntry>, folder: string | undefined, schemaVersion: string | undefined): Baseline {
  return { baselineVersion: 1, tool: 'mcec-result', ...(folder !== undefined && { sources: relativeToFile }), ...(schemaVersion !== undefined && { schemaVersion }), findings: [...entries.values()] };
}

/**
 * Baselines of shards (`check --shard i/n --write-baseline part-i.json`) as one, written in `base`.
 * A finding in two of them (a copy named twice, two runs over one file) is known as often as the
 * larger count says: the union, not the sum, which would let new copies of it pass.
 */
export function mergeBaselines(baselines: readonly { baseline: Baseline; folder: string; path?: string }[], into: string | undefined): Baseline {
  const base = into ?? process.cwd();
  const entries = new Map<string, BaselineEntry>();
  for (const { baseline, folder } of baselines) {
    const entrySource = sourcesKeyed(base, entriesFolder(baseline, folder));
    for (const entry of baseline.findings) {
      const source = entrySource(entry.source);
      const key = keyOf(entry, source);
      const known = entries.get(key);
      if (known) known.count = Math.max(known.count, entry.count);
      else entries.set(key, { ...entry, source });
    }
  }
  return baselineOf(entries, into, mergedSchemaVersion(baselines));
}

/** The schema version shards' baselines share; baselines of two versions are refused, naming both. */
function mergedSchemaVersion(baselines: readonly { baseline: Baseline; path?: string }[]): string | undefined {
  const first = baselines[0];
  for (const { baseline, path } of baselines) {
    const [version, firstVersion] = [baseline.schemaVersion ?? unversionedSchemaVersion, first!.baseline.schemaVersion ?? unversionedSchemaVersion];
    if (version !== firstVersion) throw new UsageError(`merge: baseline ${path ?? ''} was recorded with schema version ${version}, ${first!.path ?? 'the first'} with ${firstVersion}: merge baselines of one schema version`);
  }
  return baselines.find(({ baseline }) => baseline.schemaVersion !== undefined)?.baseline.schemaVersion;
}

/**
 * A baseline's text (`JSON.stringify(baseline, null, 2)` and a line break), in pieces: as one string,
 * a baseline of a few million entries passes V8's longest string, and the run would fail after
 * reading every input ("Invalid string length"), writing nothing.
 */
export function baselinePieces(baseline: Baseline): Iterable<string> {
  return streamJson({ ...baseline, findings: streamedArray() }, baseline.findings);
}

export async function writeBaseline(path: string, findings: Iterable<Finding>, signal?: AbortSignal, schemaVersion?: string): Promise<void> {
  try {
    await writeReportFile(path, [baselinePieces(createBaseline(findings, writtenFolder(path), schemaVersion))], signal);
  } catch (error) {
    if (error instanceof WriteInterrupted) throw error;
    throw new UsageError(`cannot write baseline ${path}: ${describeError(error).replace(/^cannot write [^:]*: /, '')}`);
  }
}

export const baselineSchema = 'data/baseline.schema.json';

export function readBaseline(path: string): Baseline {
  return readValidatedJsonFile<Baseline>(path, 'baseline', baselineSchema, 'write one with --write-baseline');
}

/**
 * Which findings a baseline knows, decided in report order: the first `count` findings of an entry's
 * identity are known. A fresh matcher per walk, so that a report read twice reads the same.
 */
export function matcher(baseline: Baseline, base: string): () => (finding: Finding) => boolean {
  const known = new Map<string, number>();
  const entrySource = sourcesKeyed(base, entriesFolder(baseline, base));
  for (const entry of baseline.findings) {
    const key = keyOf(entry, entrySource(entry.source));
    known.set(key, (known.get(key) ?? 0) + entry.count);
  }
  return () => {
    const remaining = new Map(known);
    const sourceOf = sourcesKeyed(base);
    return (finding) => {
      const id = identity(finding);
      const key = keyOf(id, sourceOf(id.source));
      const left = remaining.get(key) ?? 0;
      if (left === 0) return true;
      remaining.set(key, left - 1);
      return false;
    };
  };
}

/**
 * The report without the findings the baseline (read from a file in `base`) knows, with
 * `summary.baseline` and recounted totals.
 */
export function applyBaseline(report: Report, baseline: Baseline, base: string): Report {
  // Only entries of inputs this run read whole can be stale: with --shard, or on part of the corpus,
  // the others were not looked at (else every shard would count the rest of the corpus stale, and merge sum it).
  const sourceOf = sourcesKeyed(base);
  const read = report.inputsRead && new Set(report.inputsRead.map(sourceOf));
  const counted = (key: string) => !read || read.has(key);
  const fresh = matcher(baseline, base);
  const isNew = fresh();
  let kept = 0;
  let errors = 0;
  let matchedInRead = 0;
  for (const finding of report.findings) {
    if (!isNew(finding)) {
      if (counted(sourceOf(finding.location.source))) matchedInRead++;
      continue;
    }
    kept++;
    if (finding.severity === 'error') errors++;
  }
  const suppressed = report.findings.length - kept;
  let entries = 0;
  const entrySource = sourcesKeyed(base, entriesFolder(baseline, base));
  for (const entry of baseline.findings) if (counted(entrySource(entry.source))) entries += entry.count;
  return {
    ...report,
    findings: new FilteredList(report.findings, fresh, kept),
    summary: { ...report.summary, errors, warnings: kept - errors, baseline: { suppressed, stale: entries - matchedInRead } },
  };
}

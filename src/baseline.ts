// Baselines (issue 4): adopt the checker on a large existing corpus and ratchet. --write-baseline
// records today's findings; --baseline reports only the findings not in it. A finding is matched by
// rule, source, tool, code, pointer and a fingerprint of its record, never by line number, so
// inserting lines does not break a baseline. Matching counts: two identical findings need two entries.
import { writeFileSync } from 'node:fs';
import { isAbsolute, posix } from 'node:path';
import { UsageError, describeError } from './errors.js';
import { readValidatedJsonFile } from './load-json.js';
import { FilteredList } from './findings/store.js';
import { underWorkingDirectory } from './paths.js';
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

export interface Baseline {
  baselineVersion: 1;
  tool?: string;
  findings: BaselineEntry[];
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
 * An input as the user named it, in one spelling: `check .` names a file `./a.jsonl`, `check
 * a.jsonl` names it `a.jsonl`, Windows `.\a.jsonl`, and `check "$PWD/a.jsonl"` (as CI scripts
 * write it) `/work/repo/a.jsonl`; a baseline recorded one way matched nothing the other way (every
 * finding new, every entry stale). A path under the working directory is taken relative to it, so
 * that a baseline written on one machine matches on another.
 */
function sourceKey(source: string): string {
  const path = (isAbsolute(source) && underWorkingDirectory(source)) || source;
  return posix.normalize(path.replaceAll('\\', '/'));
}

function keyOf(entry: Identity): string {
  return JSON.stringify([entry.rule, sourceKey(entry.source), entry.tool ?? null, entry.code ?? null, entry.pointer ?? null, entry.fingerprint]);
}

export function createBaseline(findings: Iterable<Finding>): Baseline {
  const entries = new Map<string, BaselineEntry>();
  for (const finding of findings) {
    const id = identity(finding);
    const key = keyOf(id);
    const entry = entries.get(key);
    if (entry) entry.count++;
    else entries.set(key, { ...id, source: sourceKey(id.source), count: 1, message: finding.message });
  }
  return { baselineVersion: 1, tool: 'mcec-result', findings: [...entries.values()] };
}

/**
 * Baselines of shards (`check --shard i/n --write-baseline part-i.json`) as one. A finding in two of
 * them (a copy named twice, two runs over one file) is known as often as the larger count says: the
 * union, not the sum, which would let new copies of it pass.
 */
export function mergeBaselines(baselines: readonly Baseline[]): Baseline {
  const entries = new Map<string, BaselineEntry>();
  for (const baseline of baselines) {
    for (const entry of baseline.findings) {
      const key = keyOf(entry);
      const known = entries.get(key);
      if (known) known.count = Math.max(known.count, entry.count);
      else entries.set(key, { ...entry, source: sourceKey(entry.source) });
    }
  }
  return { baselineVersion: 1, tool: 'mcec-result', findings: [...entries.values()] };
}

export function baselineText(baseline: Baseline): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

export function writeBaseline(path: string, findings: Iterable<Finding>): void {
  try {
    writeFileSync(path, baselineText(createBaseline(findings)));
  } catch (error) {
    throw new UsageError(`cannot write baseline ${path}: ${describeError(error)}`);
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
function matcher(baseline: Baseline): () => (finding: Finding) => boolean {
  const known = new Map<string, number>();
  for (const entry of baseline.findings) known.set(keyOf(entry), (known.get(keyOf(entry)) ?? 0) + entry.count);
  return () => {
    const remaining = new Map(known);
    return (finding) => {
      const key = keyOf(identity(finding));
      const left = remaining.get(key) ?? 0;
      if (left === 0) return true;
      remaining.set(key, left - 1);
      return false;
    };
  };
}

/** The report without the findings the baseline knows, with `summary.baseline` and recounted totals. */
export function applyBaseline(report: Report, baseline: Baseline): Report {
  // Only entries of inputs this run read whole can be stale: with --shard, or on part of the corpus,
  // the others were not looked at (every shard counted the rest of the corpus stale, and merge summed it).
  const read = report.inputsRead && new Set(report.inputsRead.map(sourceKey));
  const counted = (source: string) => !read || read.has(sourceKey(source));
  const fresh = matcher(baseline);
  const isNew = fresh();
  let kept = 0;
  let errors = 0;
  let matchedInRead = 0;
  for (const finding of report.findings) {
    if (!isNew(finding)) {
      if (counted(finding.location.source)) matchedInRead++;
      continue;
    }
    kept++;
    if (finding.severity === 'error') errors++;
  }
  const suppressed = report.findings.length - kept;
  let entries = 0;
  for (const entry of baseline.findings) if (counted(entry.source)) entries += entry.count;
  return {
    ...report,
    findings: new FilteredList(report.findings, fresh, kept),
    summary: { ...report.summary, errors, warnings: kept - errors, baseline: { suppressed, stale: entries - matchedInRead } },
  };
}

// The run's own files: the config, codes and schema it reads, the reports and
// baseline it writes, and a stdout redirected to a file. Each refusal happens before anything is
// read: an input a report or baseline would overwrite (named, found by a walk, or redirected to
// standard input), two reports to one file, a report over a file read in another role, and a
// report or baseline that cannot be written. src/sources/expand.ts leaves them out of what folders
// and globs find.
import { accessSync, closeSync, constants, fstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { OwnFile } from '../context.js';
import { UsageError, describeError } from '../errors.js';
import type { InputSource } from './input-source.js';

/** A path resolved, and real when it exists (a link is the file it leads to). */
export function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** A path as the file it names: resolved, and real when it exists (a link is the file it leads to). */
function pathKeys(path: string): [string, string] {
  return [resolve(path), realPathOf(path)];
}

/** The run's own files by their path keys. */
export function ownFilesByKey(own: readonly OwnFile[]): Map<string, OwnFile> {
  const byKey = new Map<string, OwnFile>();
  for (const file of own) for (const key of pathKeys(file.path)) byKey.set(key, file);
  return byKey;
}

/** An input the run would write over (a report, a baseline) is refused before anything is read. */
export function refuseOverwrite(name: string, path: string, owned: ReadonlyMap<string, OwnFile>): void {
  const [resolved, real] = pathKeys(path);
  const clash = owned.get(resolved) ?? owned.get(real);
  if (clash?.written) throw new UsageError(`${name} is an input, and ${clash.role} this run writes would overwrite it: write ${clash.role} to another file`);
}

/**
 * How each format and the baseline start, as this tool writes them (colour codes aside): a file
 * found by a walk that starts so is an earlier report, left out and written again.
 */
const writtenStarts = [
  /^\{\s*"reportVersion"\s*:/,
  /^\{\s*"baselineVersion"\s*:/,
  /^\{\s*"\$schema"\s*:\s*"[^"]*sarif[^"]*",[\s\S]*"name"\s*:\s*"mcec-result"/,
  /^<\?xml[^>]*>\s*<testsuites name="mcec-result"/,
  /^## \S+ mcec-result: /,
  /^::(?:notice|warning|error) title=mcec-result::/,
  /^\{"type":"(?:finding|summary)"/,
  // Human: the verdict line, or a finding's place, severity and message.
  /^[\u2714\u2716\u26a0] /,
  /^\S[^\n]*:\d+(?::\d+)? {2,}(?:error|warning) {2}/,
];

/**
 * Whether a file this run writes, found by a folder or glob, holds data of its own: anything but
 * nothing or an earlier report. Left out and replaced like an earlier report, a log would be lost
 * (`check logs/ -o logs/2.jsonl`); what an earlier run wrote is known by how it starts, not by
 * "mcec-result" anywhere in it, which a record's detail may hold too.
 */
function holdsData(path: string): boolean {
  const head = Buffer.alloc(4096);
  let read = 0;
  try {
    const fd = openSync(path, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Unreadable: nothing this run could read from it either, and writing it says why it fails.
    return false;
  }
  // Colour codes first: a human report written with --color starts with one.
  const text = head.subarray(0, read).toString('utf8').replace(/^\uFEFF/, '').replace(/\u001b\[[0-9;]*m/g, '').trimStart();
  return text !== '' && !writtenStarts.some((start) => start.test(text));
}

/**
 * A file a walk found that the run would write over, holding data: refused, as a file named would
 * be. Matched by its resolved path, and through links (a folder reached by a link) only where the
 * name is one the run writes: a realpath for each file found would cost lstat calls on every one.
 */
export function refuseFoundOverwrite(files: readonly { source: InputSource; key: string }[], shownArg: string, owned: ReadonlyMap<string, OwnFile>): void {
  const writtenNames = new Set<string>();
  for (const file of owned.values()) if (file.written) writtenNames.add(basename(file.path));
  for (const { source, key } of files) {
    if (!writtenNames.has(basename(key))) continue;
    const clash = owned.get(key) ?? owned.get(realPathOf(key));
    if (clash?.written && holdsData(key)) {
      throw new UsageError(`${source.name} (found in ${shownArg}) is an input, and ${clash.role} this run writes would overwrite it: write ${clash.role} to another file`);
    }
  }
}

/**
 * `check - < run.jsonl -o run.jsonl`: the shell opens the file for reading (it does not truncate
 * it), the run reads it whole, then the report replaced it. Standard input has no name, so it is
 * matched with the written files by device and inode.
 */
export function refuseStdinOverwrite(own: readonly OwnFile[]): void {
  let stdin;
  try {
    stdin = fstatSync(0);
  } catch {
    return;
  }
  if (!stdin.isFile()) return;
  for (const file of own) {
    if (!file.written) continue;
    const written = statSync(file.path, { throwIfNoEntry: false });
    if (written && written.dev === stdin.dev && written.ino === stdin.ino) {
      throw new UsageError(`standard input is ${file.path}, redirected in, and ${file.role} this run writes would overwrite it: write ${file.role} to another file`);
    }
  }
}

/** A device or pipe (`-o /dev/stdout`) takes each report in turn; only a file is replaced by the next. */
function replacedWhenWritten(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return true;
  }
}

/**
 * The run's own files among themselves, before anything is read. Two reports named to one file
 * (`-o run.txt -f sarif=run.txt`) would leave the last of them; a report over a settings file
 * (`--codes codes.json -o codes.json`) would destroy it. A file read and written in the same role is
 * allowed: `--baseline b.json --write-baseline b.json` brings a baseline up to date.
 */
export function refuseClashes(own: readonly OwnFile[]): void {
  const seen = new Map<string, OwnFile>();
  for (const file of own) {
    if (file.written && !replacedWhenWritten(file.path)) continue;
    for (const key of pathKeys(file.path)) {
      const other = seen.get(key);
      if (other && other !== file) {
        if (file.written && other.written) throw new UsageError(`${other.path} would be written twice, ${other.role} and then ${file.role} over it: give each its own file`);
        const [read, written] = file.written ? [other, file] : [file, other];
        if (written.written && read.role !== written.role) throw new UsageError(`${read.path} is ${read.role}, and ${written.role} this run writes would overwrite it: write ${written.role} to another file`);
      }
      seen.set(key, file);
    }
  }
}

/**
 * The files a run will write, tried before anything is read, so that a report to a folder that does
 * not exist fails before the corpus is checked, not after. Nothing is created or
 * truncated here, so a run refused for another reason leaves the old file as it was.
 */
export function refuseUnwritable(own: readonly OwnFile[]): void {
  for (const file of own) {
    const problem = file.written ? unwritable(file.path) : undefined;
    if (problem !== undefined) throw new UsageError(`cannot write ${file.role} ${file.path}: ${problem}`);
  }
}

function unwritable(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return 'it is a folder';
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return describeError(error);
  }
  const folder = dirname(resolve(path));
  try {
    if (!statSync(folder).isDirectory()) return `${folder} is not a folder`;
    accessSync(folder, constants.W_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? `the folder ${folder} does not exist` : `${folder}: ${describeError(error)}`;
  }
}

// Where reports go: standard output, this process's own streams by name, or files. A file is
// written whole or not at all: the report goes to a temporary file beside it, which then replaces it.
import { closeSync, fchmodSync, openSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError, describeError } from './errors.js';

/**
 * Pieces gathered to 64 KiB per write: a write per finding would cost a syscall each, and strings
 * of a megabyte or more live in V8's large-object space until a full collection.
 */
export function writePieces(fd: number, reports: readonly Iterable<string>[]): void {
  let text = '';
  for (const pieces of reports) {
    for (const piece of pieces) {
      text += piece;
      if (text.length >= 64 * 1024) writeAll(fd, text), (text = '');
    }
  }
  if (text !== '') writeAll(fd, text);
}

/**
 * writeSync to a pipe may take only part of the text, or find it full (EAGAIN, when stdout is a
 * non-blocking pipe): the rest is written again until it is all out.
 */
function writeAll(fd: number, text: string): void {
  let bytes = Buffer.from(text, 'utf8');
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
    }
  }
}

/**
 * `-f sarif=/dev/stdout` names this process's own stream. Opened by path it fails when that stream is
 * a socket (ENXIO: a Node parent's spawn gives its children sockets), so it is written as it is.
 */
const ownStreams = new Map<string, number>(process.platform === 'win32' ? [] : [['/dev/stdout', 1], ['/dev/stderr', 2]]);

/**
 * The file a report replaces: a link's target (renaming over the link would turn it into a file),
 * and its permissions, or undefined for a device or pipe, which takes the report as it comes.
 */
function replacedFile(path: string): { target: string; mode?: number } | undefined {
  let info;
  try {
    info = statSync(path);
  } catch {
    return { target: path };
  }
  if (!info.isFile()) return undefined;
  return { target: realpathSync(path), mode: info.mode & 0o7777 };
}

/**
 * A report to `path`, written whole or not at all. Opened with 'w' and written in pieces, a run that
 * failed part way (a full disk, a file-size limit) had already destroyed last run's good report and
 * left a cut-off one (8 KiB of a 56 KB JSON report). The report goes to a temporary file beside the
 * target, which replaces it only once it is complete.
 */
export function writeReportFile(path: string, reports: readonly Iterable<string>[]): void {
  const stream = path === '-' ? 1 : ownStreams.get(path);
  if (stream !== undefined) return writePieces(stream, reports);
  const replaced = replacedFile(path);
  const target = replaced?.target ?? path;
  // A dot file that no folder walk or glob of inputs reads as one.
  let temporary = replaced ? join(dirname(target), `.${basename(target)}.${process.pid}.tmp`) : target;
  let fd: number;
  try {
    fd = openSync(temporary, 'w');
  } catch (error) {
    // A writable file in a folder that takes no new file: written in place, as before.
    const code = (error as NodeJS.ErrnoException).code;
    if (temporary === target || (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS')) throw new UsageError(`cannot write ${path}: ${describeError(error)}`);
    temporary = target;
    try {
      fd = openSync(target, 'w');
    } catch (inPlace) {
      throw new UsageError(`cannot write ${path}: ${describeError(inPlace)}`);
    }
  }
  try {
    try {
      if (replaced?.mode !== undefined) fchmodSync(fd, replaced.mode);
      writePieces(fd, reports);
    } finally {
      closeSync(fd);
    }
    if (temporary !== target) renameSync(temporary, target);
  } catch (error) {
    if (temporary !== target) rmSync(temporary, { force: true });
    throw new UsageError(`cannot write ${path}: ${describeError(error)}`);
  }
}

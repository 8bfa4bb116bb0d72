// Where reports go: standard output, this process's own streams by name, or files. A file is
// written whole or not at all: the report goes to a temporary file beside it, which then replaces it.
import { setImmediate as macrotask } from 'node:timers/promises';
import { closeSync, fchmodSync, fchownSync, lstatSync, openSync, readSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError, describeError } from './errors.js';
import { forget, removeAtExit } from './at-exit.js';
import { OpenAborted, openOffThread } from './sources/special.js';
// node:crypto weighs on start-up; only a report written to a file needs it (its temporary name).
import { loadCrypto } from './lazy.js';

/** A write that the caller's signal (Ctrl-C) stopped part way; `detail` says what it left. */
export class WriteInterrupted extends Error {
  constructor(readonly detail: string) {
    super(`interrupted while writing: ${detail}`);
  }
}

/** Output between two looks at the signal: a look lets the event loop run the SIGINT listener. */
const betweenLooks = 1 << 20;

/**
 * Pieces gathered to 64 KiB per write: a write per finding would cost a syscall each, and strings
 * of a megabyte or more live in V8's large-object space until a full collection. The writes are
 * synchronous, and nothing else runs meanwhile: with a signal, every megabyte the event loop gets a
 * turn, so that Ctrl-C stops a long report rather than killing the process, which would leave its
 * temporary files behind.
 */
export async function writePieces(fd: number, reports: readonly Iterable<string>[], signal?: AbortSignal, stopped = `standard ${fd === 2 ? 'error' : 'output'} is cut short`): Promise<void> {
  let text = '';
  let sinceLook = 0;
  // A full disk under `> report.txt` is said as a write of standard output failing, not as an unexpected failure.
  const write = fd === 1 || fd === 2 ? (out: string) => writeStandard(fd, out) : (out: string) => writeAll(fd, out);
  for (const pieces of reports) {
    for (const piece of pieces) {
      text += piece;
      if (text.length < 64 * 1024) continue;
      write(text);
      sinceLook += text.length;
      text = '';
      if (signal && sinceLook >= betweenLooks) {
        sinceLook = 0;
        await macrotask();
        if (signal.aborted) throw new WriteInterrupted(stopped);
      }
    }
  }
  if (text !== '') write(text);
}

/** Standard output or error: a failure other than a reader gone (EPIPE, which callers take as such) names the stream. */
function writeStandard(fd: 1 | 2, text: string): void {
  try {
    writeAll(fd, text);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EPIPE') throw error;
    throw new UsageError(`cannot write standard ${fd === 2 ? 'error' : 'output'}: ${describeError(error)}`);
  }
}

/**
 * Where writeAll encodes a gathered piece (64 KiB of text, at most three bytes a UTF-16 unit): one
 * buffer for every write: Buffer.from would make a new one each time, memory the kernel has to fault
 * in, and measure its text first.
 */
const encodedBytes = 256 * 1024;
let encoded: Buffer | undefined;

/**
 * writeSync to a pipe may take only part of the text, or find it full (EAGAIN, when stdout is a
 * non-blocking pipe): the rest is written again until it is all out.
 */
function writeAll(fd: number, text: string): void {
  let bytes: Buffer;
  if (text.length * 3 <= encodedBytes) {
    encoded ??= Buffer.allocUnsafe(encodedBytes);
    bytes = encoded.subarray(0, encoded.write(text, 'utf8'));
  } else {
    bytes = Buffer.from(text, 'utf8');
  }
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
const ownStreams = new Map<string, number>(
  process.platform === 'win32'
    ? []
    : [
        ['/dev/stdout', 1],
        ['/dev/stderr', 2],
        ['/dev/fd/1', 1],
        ['/dev/fd/2', 2],
        ['/proc/self/fd/1', 1],
        ['/proc/self/fd/2', 2],
      ],
);

/** The descriptor of this process's stream a report path names (`-`, `/dev/stdout`, `/dev/stderr`), if it names one. */
export function standardStream(path: string): number | undefined {
  return path === '-' ? 1 : ownStreams.get(path);
}

interface Replaced {
  /** The file renamed over: a link's target, since renaming over the link would turn it into a file. */
  target: string;
  /** The old file's permissions and owner, which the new one keeps. */
  old?: { mode: number; uid: number; gid: number };
}

/** What a report written to `path` replaces; `fifo` or undefined for a device or pipe, which takes it as it comes. */
function replacedFile(path: string): Replaced | 'fifo' | undefined {
  let target = path;
  // A link, dangling too, is followed to the file it names.
  // Relative to the folder the link really is in: `..` from a path through a linked folder is not
  // where the kernel goes (linkdir/out.json -> ../r.json names real/r.json, not ./r.json).
  for (let hops = 0; hops < 40 && lstatSync(target, { throwIfNoEntry: false })?.isSymbolicLink(); hops++) target = resolve(realpathSync(dirname(target)), readlinkSync(target));
  const info = statSync(target, { throwIfNoEntry: false });
  if (!info) return { target };
  if (!info.isFile()) return info.isFIFO() ? 'fifo' : undefined;
  return { target, old: { mode: info.mode & 0o7777, uid: info.uid, gid: info.gid } };
}

/** A new file beside `target` that no folder walk or glob reads as an input (a dot file), made for this write alone. */
function openTemporary(target: string): { path: string; fd: number } {
  for (let attempt = 0; ; attempt++) {
    const path = join(dirname(target), `.${basename(target)}.${loadCrypto().randomBytes(6).toString('hex')}.tmp`);
    try {
      // 'wx': a file or link planted under the name is never written through.
      return { path, fd: openSync(path, 'wx') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 5) throw error;
    }
  }
}

/**
 * A report to `path`, written whole or not at all. Opened with 'w' and written in pieces, a run that
 * fails part way (a full disk, a file-size limit) would destroy last run's good report and leave a
 * cut-off one. The report goes to a temporary file beside the
 * target, which replaces it only once it is complete. A hard link to the old file keeps the old
 * report, as with any tool that replaces files so.
 */
export async function writeReportFile(path: string, reports: readonly Iterable<string>[], signal?: AbortSignal): Promise<void> {
  const stream = standardStream(path);
  if (stream !== undefined) return writePieces(stream, reports, signal);
  let replaced;
  try {
    replaced = replacedFile(path);
  } catch (error) {
    // A folder on the way that cannot be searched, a link that loops: said as any write failure is.
    throw new UsageError(`cannot write ${path}: ${describeError(error)}`);
  }
  if (!replaced || replaced === 'fifo') return writeInPlace(path, path, reports, signal, replaced === 'fifo');
  const { target, old } = replaced;
  let temporary;
  try {
    temporary = openTemporary(target);
  } catch (error) {
    // A writable file in a folder that takes no new file: written in place, as before.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return writeInPlace(path, target, reports, signal);
    throw new UsageError(`cannot write ${path}: ${describeError(error)}`);
  }
  // SIGTERM and SIGHUP end the run with process.exit(), which skips the catch below: a cut-off
  // report must not stay beside the target.
  removeAtExit(temporary.path);
  try {
    try {
      if (old) {
        fchmodSync(temporary.fd, old.mode);
        // Only root, or the owner keeping it, may: otherwise the file is the runner's, as a new one is.
        if (old.uid !== process.getuid?.() || old.gid !== process.getgid?.()) tryOwner(temporary.fd, old.uid, old.gid);
      }
      await writePieces(temporary.fd, reports, signal, old ? `${path} is not written: it keeps its last contents` : `${path} is not written`);
    } finally {
      closeSync(temporary.fd);
    }
    try {
      renameSync(temporary.path, target);
    } catch (error) {
      // Windows will not rename over a file another process holds open: written in place then.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EPERM' && code !== 'EBUSY' && code !== 'EACCES') throw error;
      copyInPlace(path, temporary.path, target);
      rmSync(temporary.path, { force: true });
    }
  } catch (error) {
    rmSync(temporary.path, { force: true });
    throw error instanceof UsageError || error instanceof WriteInterrupted ? error : new UsageError(`cannot write ${path}: ${describeError(error)}`);
  } finally {
    forget(temporary.path);
  }
}

function tryOwner(fd: number, uid: number, gid: number): void {
  try {
    fchownSync(fd, uid, gid);
  } catch {
    // Not ours to give away: the report is the runner's file, as a new report is.
  }
}

/** The finished report's bytes copied over the target a megabyte at a time, when it cannot be renamed over it. */
function copyInPlace(path: string, from: string, target: string): void {
  let source: number | undefined;
  let fd: number | undefined;
  try {
    source = openSync(from, 'r');
    fd = openSync(target, 'w');
    const buffer = Buffer.allocUnsafe(1 << 20);
    for (let read; (read = readSync(source, buffer, 0, buffer.length, null)) > 0; ) {
      for (let written = 0; written < read; ) written += writeSync(fd, buffer, written, read - written);
    }
  } catch (error) {
    throw new UsageError(`cannot write ${path}: ${describeError(error)}`);
  } finally {
    if (source !== undefined) closeSync(source);
    if (fd !== undefined) closeSync(fd);
  }
}

/** The old way, for a device, a pipe, or a file whose folder takes no new file. */
async function writeInPlace(path: string, target: string, reports: readonly Iterable<string>[], signal: AbortSignal | undefined, fifo = false): Promise<void> {
  let fd: number;
  try {
    // A FIFO's open waits for a reader: off the main thread, so that Ctrl-C and SIGTERM are heard.
    fd = fifo ? await openOffThread(target, 'w', signal) : openSync(target, 'w');
  } catch (error) {
    if (error instanceof OpenAborted) throw new WriteInterrupted(`${path} is not written: nothing read it`);
    throw new UsageError(`cannot write ${path}: ${describeError(error)}`);
  }
  try {
    await writePieces(fd, reports, signal, `${path} is cut short`);
  } catch (error) {
    throw error instanceof WriteInterrupted ? error : new UsageError(`cannot write ${path}: ${describeError(error)}`);
  } finally {
    closeSync(fd);
  }
}

// Exceptions are for usage and configuration failures only (bad option, unreadable schema or codes
// file). Problems in the data are findings, never exceptions. The CLI prints `message` as one line
// and exits 2.
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * Why a file could not be read, said of its name. A name that is not UTF-8 (a Latin-1 name from an
 * old archive, say) reaches Node with U+FFFD in place of its bytes, from the command line and from a
 * folder walk alike, and that name does not exist: "no such file" of a file the listing shows.
 */
export function describeReadError(path: string, error: unknown): string {
  const missing = (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT' || error === undefined;
  if (missing && path.includes('\uFFFD')) return 'its name is not valid UTF-8, and Node cannot open such a name: rename the file';
  return error === undefined ? 'no such file or directory' : describeError(error);
}

/** Describes any thrown value in one line, for messages that must never show a stack. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    if (code === 'EISDIR') return 'is a directory';
    // Node's system errors read "ENAMETOOLONG: name too long, scandir '<path>'": the caller names the
    // path already, and a 4 KiB path twice on one line hides the reason.
    const { syscall } = error as NodeJS.ErrnoException;
    if (code !== undefined && syscall !== undefined && error.message.startsWith(`${code}: `)) {
      const reason = error.message.slice(code.length + 2);
      const end = reason.lastIndexOf(`, ${syscall}`);
      return end > 0 ? reason.slice(0, end) : reason;
    }
    return error.message;
  }
  return String(error);
}

// Exceptions are for usage and configuration failures only (bad option, unreadable schema or codes
// file). Problems in the data are findings, never exceptions. The CLI prints `message` as one line
// and exits 2.
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Describes any thrown value in one line, for messages that must never show a stack. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    if (code === 'EISDIR') return 'is a directory';
    return error.message;
  }
  return String(error);
}

// Temporary files and folders removed when the process ends, if nothing removed them before: a
// report being written (SIGTERM and SIGHUP end a run with process.exit(), which skips the catch that
// removes a cut-off one) and the folders of spooled findings (Ctrl-C included). One exit listener
// for the process; the set empties and fills again as runs come and go.
import { rmSync } from 'node:fs';

const pending = new Set<string>();
let hooked = false;

/** Removes `path` (a file, or a folder and what it holds) now, and forgets it. */
export function removeNow(path: string): void {
  pending.delete(path);
  // A worker thread may still be adding a file to a folder: retried rather than left half removed.
  rmSync(path, { recursive: true, force: true, maxRetries: 3 });
}

/** `path` is removed at exit unless `forget(path)` or `removeNow(path)` comes first. */
export function removeAtExit(path: string): void {
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const left of pending) {
        try {
          removeNow(left);
        } catch {
          // A worker thread still writing its spool (workers stop after the exit handlers) can
          // refill a folder as it is removed: the rest still go, and the process ends without a
          // stack trace.
        }
      }
    });
  }
  pending.add(path);
}

/** `path` is no longer this process's to remove (renamed into place, or removed already). */
export function forget(path: string): void {
  pending.delete(path);
}

// Standard output and error as the command line uses them. Node makes process.stdout and
// process.stderr when first read, and making either loads node:stream, and node:net for a pipe or
// a terminal (a socket each): a part of a small run's start-up worth sparing (docs/performance.md).
// Reports go out with writeSync, so a check makes neither stream unless a message, the progress
// line or commander's output needs it; what a stream needs is attached as it is made, whoever
// reads it first.
import { fstatSync, statSync, type Stats } from 'node:fs';
import { loadTty } from '../lazy.js';

/** Calls `made` with `process[name]` once it is made, by whichever read makes it. */
export function whenMade(name: 'stdout' | 'stderr', made: (stream: NodeJS.WriteStream) => void): void {
  const own = Object.getOwnPropertyDescriptor(process, name);
  // A Node that holds the stream otherwise (no getter to wrap) has it made now.
  if (own?.get === undefined || own.configurable !== true) return made(process[name]);
  const { get } = own;
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable ?? true,
    get() {
      // Node's own getter again, which keeps the stream it made: later reads cost nothing more.
      Object.defineProperty(process, name, own);
      const stream = get.call(process) as NodeJS.WriteStream;
      made(stream);
      return stream;
    },
  });
}

/**
 * Whether `fd` is a terminal, as its stream's isTTY would say, told without making the stream: a
 * terminal is a character device, so one fstat tells a pipe or a file (CI, `> report.txt`), and
 * /dev/null is known by its device; any other character device is asked of node:tty. So is a
 * descriptor fstat cannot read: a closed one, which node:tty says is none, or a Windows console under
 * a libuv without its fix for fstat of stdio (libuv pull request 3811), which may be a terminal.
 */
export function isTerminal(fd: 1 | 2): boolean {
  let stats: Stats | undefined;
  try {
    stats = fstatSync(fd);
  } catch {
    // Asked of node:tty below.
  }
  if (stats !== undefined && (!stats.isCharacterDevice() || isDevNull(stats))) return false;
  return loadTty().isatty(fd);
}

/** Whether `stats` are /dev/null's (`> /dev/null`, a run kept for its exit status); false where there is none. */
function isDevNull(stats: Stats): boolean {
  try {
    const devNull = statSync('/dev/null');
    return stats.rdev === devNull.rdev && stats.dev === devNull.dev && stats.ino === devNull.ino;
  } catch {
    return false;
  }
}

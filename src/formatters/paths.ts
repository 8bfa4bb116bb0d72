// Paths as CI tools want them (spec section 7, "Paths"): relative to the working directory, with
// forward slashes on every platform, because GitHub and SARIF viewers resolve them against the
// checkout root.
import { isAbsolute, posix, relative } from 'node:path';

/** The standard-input name of a report: kept as is, it names no file. */
const stdinName = '-';

/**
 * `source` relative to `cwd`, with forward slashes. A relative source was given relative to the
 * working directory already; an absolute one on another drive (Windows) stays absolute, since no
 * relative path reaches it. Either is normalized, so that `./a.jsonl` (found by `check .`) and
 * `a.jsonl` (named) are one file to SARIF and GitHub.
 */
export function relativeSourcePath(source: string, cwd: string, platform: NodeJS.Platform = process.platform): string {
  if (source === stdinName) return source;
  const near = isAbsolute(source) ? relative(cwd, source) || '.' : source;
  // Windows' separator. Elsewhere a backslash is part of a name (a folder walk may find `a\b.jsonl`, which
  // is no a/b.jsonl): arguments have theirs read as separators already.
  const path = platform === 'win32' ? near.replaceAll('\\', '/') : near;
  // posix.normalize makes //server/share (a Windows UNC path, not relative to a drive) /server/share.
  return path.startsWith('//') ? `/${posix.normalize(path)}` : posix.normalize(path);
}

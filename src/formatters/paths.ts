// Paths as CI tools want them (spec section 7, "Paths"): relative to the working directory, with
// forward slashes on every platform, because GitHub and SARIF viewers resolve them against the
// checkout root.
import { isAbsolute, posix, relative } from 'node:path';

/** The standard-input name of a report: kept as is, it names no file. */
const stdinName = '-';

/**
 * `source` relative to `cwd`, with forward slashes. A relative source was given relative to the
 * working directory already; an absolute one on another drive (Windows) stays absolute, since no
 * relative path reaches it. Either is normalized: `check .` found `./a.jsonl`, `check a.jsonl` named
 * `a.jsonl`, and SARIF and GitHub took them for two files.
 */
export function relativeSourcePath(source: string, cwd: string, platform: NodeJS.Platform = process.platform): string {
  if (source === stdinName) return source;
  const near = isAbsolute(source) ? relative(cwd, source) || '.' : source;
  // Windows' separator. Elsewhere a backslash is part of a name (a folder walk found `a\b.jsonl`, which
  // SARIF and GitHub pointed at a/b.jsonl, no such file): arguments had theirs read as separators already.
  const path = platform === 'win32' ? near.replaceAll('\\', '/') : near;
  // posix.normalize makes //server/share (a Windows UNC path, not relative to a drive) /server/share.
  return path.startsWith('//') ? `/${posix.normalize(path)}` : posix.normalize(path);
}

// Paths as CI tools want them (spec section 7, "Paths"): relative to the working directory, with
// forward slashes on every platform, because GitHub and SARIF viewers resolve them against the
// checkout root.
import { isAbsolute, relative } from 'node:path';

/** The standard-input name of a report: kept as is, it names no file. */
const stdinName = '-';

/**
 * `source` relative to `cwd`, with forward slashes. A relative source was given relative to the
 * working directory already and stays as it is; an absolute one on another drive (Windows) stays
 * absolute, since no relative path reaches it.
 */
export function relativeSourcePath(source: string, cwd: string): string {
  if (source === stdinName) return source;
  const path = isAbsolute(source) ? relative(cwd, source) || '.' : source;
  return path.replaceAll('\\', '/');
}

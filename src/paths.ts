// Paths as the user sees them: relative to the working directory where they are under it.
import { isAbsolute, relative, sep } from 'node:path';

/** `path` relative to the working directory ('' for the directory itself), or undefined when outside it. */
export function underWorkingDirectory(path: string): string | undefined {
  const inside = relative(process.cwd(), path);
  // `..foo` is a name inside; `..` and `../x` are outside, and another drive stays absolute.
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  return inside;
}

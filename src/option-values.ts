// Option values read alike on the command line and in a config file: sizes and counts, and the one
// setting two keys may not both give. A leaf, so that the command line's parsing (cli-options.ts)
// and the config file's (config.ts) share it without importing each other. Each failure is a
// UsageError naming the option (or the config key) and what is valid.
import { UsageError } from './errors.js';

const byteUnits: Record<string, number> = { '': 1, k: 2 ** 10, kib: 2 ** 10, m: 2 ** 20, mib: 2 ** 20, g: 2 ** 30, gib: 2 ** 30 };

/**
 * A limit as the help and errors give it: `536870888 bytes (512M less 24 bytes)`. Node's longest
 * string is just under a power of two, so "512M", or a G, would be over it.
 */
export function byteLimitText(max: number): string {
  const inM = Math.ceil(max / 2 ** 20);
  const short = inM * 2 ** 20 - max;
  return `${max} bytes${short === 0 ? '' : ` (${inM}M less ${short} byte${short === 1 ? '' : 's'})`}`;
}

/** The units worth naming under `max`: a G that no value under it can use is not offered. */
function unitsUnder(max: number): string {
  const units = (['K', 'M', 'G'] as const).filter((unit) => byteUnits[unit.toLowerCase()]! <= max);
  const names = (list: string[]) => (list.length < 2 ? list.join('') : `${list.slice(0, -1).join(', ')} or ${list.at(-1)!}`);
  return `${names(units)} (${names(units.map((unit) => `${unit}iB`))})`;
}

/** A size as people write it, the unit binary as `head -c` and the help's "64 MiB": 65536, 64K, 64MiB. */
export function parseByteSize(option: string, value: string, max: number): number {
  // A blank only between the number and its unit ("64 M"): " 5", "5 " and "5M " are all refused alike.
  const match = /^(\d+)(?: ?([a-z]+))?$/i.exec(value);
  const unit = byteUnits[match?.[2]?.toLowerCase() ?? ''];
  const bytes = match && unit !== undefined ? Number(match[1]) * unit : Number.NaN;
  if (Number.isNaN(bytes)) throw new UsageError(`${option}: expected a size in bytes, a whole number with ${unitsUnder(max)} after it if you like, got "${value}"`);
  if (bytes < 1) throw new UsageError(`${option}: expected at least 1 byte, got "${value}"`);
  if (bytes > max) {
    const largest = Math.floor(max / 2 ** 20);
    const inM = largest > 0 ? `, so ${largest}M is the most in M` : '';
    throw new UsageError(`${option}: at most ${byteLimitText(max)}, the longest line Node can hold as one string${inM}; got "${value}"`);
  }
  return bytes;
}

export function parseCount(option: string, value: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max || !Number.isSafeInteger(Number(value))) {
    const range = max < Number.MAX_SAFE_INTEGER ? ` from ${min} to ${max}` : min > 0 ? ` of at least ${min}` : '';
    // 9007199254740992 is a whole number: it is too large, which "expected a whole number" alone would not say.
    const tooLarge = /^\d+$/.test(value) && max === Number.MAX_SAFE_INTEGER && Number(value) > max ? ` (at most ${max})` : '';
    throw new UsageError(`${option}: expected a whole number${range}${tooLarge}, got "${value}"`);
  }
  return Number(value);
}

/**
 * Spec section 8.3: `--schema FILE` and `--schema-version NAME` are one setting. Both on one level
 * (both typed, or both in one config file) cannot be what was meant; across levels the command line wins.
 */
export function refuseTwoSchemas(settings: { schema?: string; schemaVersion?: string }, where?: string): void {
  if (settings.schema === undefined || settings.schemaVersion === undefined) return;
  const [file, version] = where === undefined ? ['--schema', '--schema-version'] : [`${where}/schema`, `${where}/schemaVersion`];
  throw new UsageError(`${file} ${settings.schema} and ${version} ${settings.schemaVersion} are one setting, the envelope schema (a file, or a bundled version): give one`);
}

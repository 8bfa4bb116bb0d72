// The output formats, by name, for the library. The CLI loads them one by one through load.ts.
import { formatGithub } from './github.js';
import { formatHtml } from './html/index.js';
import { formatHuman } from './human.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import type { Report } from '../types.js';
import { UsageError } from '../errors.js';
import { aFlag, expecting, got, optionsProblem, type Check } from '../option-checks.js';
import { didYouMean, nearestName } from '../registry/nearest.js';
import { formatNames, isFormatName, type FormatName, type Formatter } from './names.js';
import { defaultFormatOptions, type FormatOptions } from './options.js';
import { formatNdjson } from './ndjson.js';
import { formatSarif } from './sarif.js';

const byName = {
  human: formatHuman,
  json: formatJson,
  ndjson: formatNdjson,
  sarif: formatSarif,
  junit: formatJunit,
  github: formatGithub,
  markdown: formatMarkdown,
  html: formatHtml,
} satisfies Record<FormatName, Formatter>;

/**
 * What a JavaScript caller passes, checked, and the options left out given their defaults, so that
 * a misspelt option (`maxListd`) or format, or a call without options, is refused with a message
 * that names it.
 */
function checkedOptions(caller: string, name: FormatName, report: Report, options: Partial<FormatOptions>): FormatOptions {
  const problem = formatNameProblem(name) ?? reportProblem(report) ?? formatOptionsProblem(options);
  if (problem !== undefined) throw new UsageError(`${caller}: ${problem}`);
  const full: FormatOptions = { ...defaultFormatOptions };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) Object.assign(full, { [key]: value });
  return full;
}

/**
 * One format's text in pieces, for reports too large for one string; options left out take their
 * defaults, as in formatReport(). Frozen, as the catalog of rules: a caller who replaced an entry
 * would change every later run's output.
 */
export const formatters = Object.freeze({
  human: checked('human'),
  json: checked('json'),
  ndjson: checked('ndjson'),
  sarif: checked('sarif'),
  junit: checked('junit'),
  github: checked('github'),
  markdown: checked('markdown'),
  html: checked('html'),
} satisfies Record<FormatName, CheckedFormatter>);

/** A formatter as the library gives it: options may be left out. */
export type CheckedFormatter = (report: Report, options?: Partial<FormatOptions>) => Iterable<string>;

function checked(name: FormatName): CheckedFormatter {
  return (report, options = {}) => byName[name](report, checkedOptions(`formatters.${name}`, name, report, options));
}

/** The whole text of one format (for a report small enough to hold as one string); options left out take their defaults. */
export function formatReport(name: FormatName, report: Report, options: Partial<FormatOptions> = {}): string {
  const full = checkedOptions('formatReport', name, report, options);
  let text = '';
  for (const piece of byName[name](report, full)) text += piece;
  return text;
}

function formatNameProblem(name: unknown): string | undefined {
  if (typeof name === 'string' && isFormatName(name)) return undefined;
  const near = typeof name === 'string' ? nearestName(name, formatNames) : undefined;
  return `unknown format ${typeof name === 'string' ? JSON.stringify(name) : got(name)}${didYouMean(near)}: choose from ${formatNames.join(', ')}`;
}

function reportProblem(report: unknown): string | undefined {
  const { summary, findings, suggestions, inputFailures } = (typeof report === 'object' && report !== null ? report : {}) as Partial<Report>;
  const fits = typeof summary === 'object' && summary !== null && typeof findings?.[Symbol.iterator] === 'function';
  if (!fits) return 'expected the report check() or merge gave';
  // The JSON report (the file --format json writes, toJsonReport()) passes the test above, but is
  // not what formats read (findings without a location, no suggestions).
  const first: unknown = Array.isArray(findings) ? findings[0] : undefined;
  const flat = typeof first === 'object' && first !== null && !('location' in first);
  if (flat || typeof suggestions !== 'object' || suggestions === null || !Array.isArray(inputFailures)) {
    return 'expected the report check() or merge gave, got another shape (a JSON report, as --format json writes it, is formatted by `mcec-result merge report.json --format <name>`)';
  }
  return undefined;
}

const optionChecks: { [K in keyof FormatOptions]-?: Check } = {
  color: aFlag,
  maxListed: expecting('a whole number (0 lists all)', (value) => Number.isSafeInteger(value) && (value as number) >= 0),
  quiet: aFlag,
  cwd: expecting('a folder path', (value) => typeof value === 'string'),
  maxWarnings: expecting('a whole number', (value) => Number.isSafeInteger(value) && (value as number) >= 0),
};

function formatOptionsProblem(options: unknown): string | undefined {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'options: expected an object';
  return optionsProblem(options, optionChecks, nearestName, ` (options: ${Object.keys(optionChecks).join(', ')})`);
}

export { formatNames, isFormatName, type FormatName, type Formatter } from './names.js';
export type { FormatOptions } from './options.js';
export { defaultFormatOptions } from './options.js';

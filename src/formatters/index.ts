// The output formats, by name, for the library. The CLI loads them one by one through load.ts.
import { formatGithub } from './github.js';
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

/** Frozen, as the catalog of rules: a caller who replaced an entry would change every later run's output. */
export const formatters = Object.freeze({
  human: formatHuman,
  json: formatJson,
  ndjson: formatNdjson,
  sarif: formatSarif,
  junit: formatJunit,
  github: formatGithub,
  markdown: formatMarkdown,
} satisfies Record<FormatName, Formatter>);

/**
 * The whole text of one format (for a report small enough to hold as one string); options left out
 * take their defaults. What a JavaScript caller passes is checked first: a misspelt option
 * (`maxListd`) listed no finding at all, and a misspelt format gave "formatters[name] is not a
 * function".
 */
export function formatReport(name: FormatName, report: Report, options: Partial<FormatOptions> = {}): string {
  const problem = formatNameProblem(name) ?? reportProblem(report) ?? formatOptionsProblem(options);
  if (problem !== undefined) throw new UsageError(`formatReport: ${problem}`);
  const full: FormatOptions = { ...defaultFormatOptions };
  for (const [key, value] of Object.entries(options)) if (value !== undefined) Object.assign(full, { [key]: value });
  let text = '';
  for (const piece of formatters[name](report, full)) text += piece;
  return text;
}

function formatNameProblem(name: unknown): string | undefined {
  if (typeof name === 'string' && isFormatName(name)) return undefined;
  const near = typeof name === 'string' ? nearestName(name, formatNames) : undefined;
  return `unknown format ${typeof name === 'string' ? JSON.stringify(name) : got(name)}${didYouMean(near)}: choose from ${formatNames.join(', ')}`;
}

function reportProblem(report: unknown): string | undefined {
  const { summary, findings } = (typeof report === 'object' && report !== null ? report : {}) as Partial<Report>;
  const fits = typeof summary === 'object' && summary !== null && typeof findings?.[Symbol.iterator] === 'function';
  return fits ? undefined : 'expected the report check() or merge gave';
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

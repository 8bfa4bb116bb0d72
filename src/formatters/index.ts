// The output formats, by name. The CLI derives --format's choices and help from this map.
import type { Report } from '../types.js';
import { formatGithub } from './github.js';
import { formatHuman } from './human.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import { formatNdjson } from './ndjson.js';
import type { FormatOptions } from './options.js';
import { formatSarif } from './sarif.js';

/** A pure function of the report, as pieces of text: a large report is written without being held whole. */
export type Formatter = (report: Report, options: FormatOptions) => Iterable<string>;

export const formatters = {
  human: formatHuman,
  json: formatJson,
  ndjson: formatNdjson,
  sarif: formatSarif,
  junit: formatJunit,
  github: formatGithub,
  markdown: formatMarkdown,
} satisfies Record<string, Formatter>;

export type FormatName = keyof typeof formatters;

export const formatNames = Object.keys(formatters) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(formatters, name);
}

/** The whole text of one format (for a report small enough to hold as one string). */
export function formatReport(name: FormatName, report: Report, options: FormatOptions): string {
  let text = '';
  for (const piece of formatters[name](report, options)) text += piece;
  return text;
}

export type { FormatOptions } from './options.js';
export { defaultFormatOptions } from './options.js';

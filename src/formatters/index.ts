// The output formats, by name, for the library. The CLI loads them one by one through load.ts.
import { formatGithub } from './github.js';
import { formatHuman } from './human.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import type { Report } from '../types.js';
import type { FormatName, Formatter } from './names.js';
import type { FormatOptions } from './options.js';
import { formatNdjson } from './ndjson.js';
import { formatSarif } from './sarif.js';

export const formatters = {
  human: formatHuman,
  json: formatJson,
  ndjson: formatNdjson,
  sarif: formatSarif,
  junit: formatJunit,
  github: formatGithub,
  markdown: formatMarkdown,
} satisfies Record<FormatName, Formatter>;

/** The whole text of one format (for a report small enough to hold as one string). */
export function formatReport(name: FormatName, report: Report, options: FormatOptions): string {
  let text = '';
  for (const piece of formatters[name](report, options)) text += piece;
  return text;
}

export { formatNames, isFormatName, type FormatName, type Formatter } from './names.js';
export type { FormatOptions } from './options.js';
export { defaultFormatOptions } from './options.js';

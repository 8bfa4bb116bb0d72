// The output formats, by name, for the library. The CLI loads them one by one through load.ts.
import { formatGithub } from './github.js';
import { formatHuman } from './human.js';
import { formatJson } from './json.js';
import { formatJunit } from './junit.js';
import { formatMarkdown } from './markdown.js';
import type { FormatName, Formatter } from './names.js';
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

export { formatNames, isFormatName, type FormatName, type Formatter } from './names.js';
export type { FormatOptions } from './options.js';
export { defaultFormatOptions } from './options.js';

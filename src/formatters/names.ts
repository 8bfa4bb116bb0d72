// The format names alone, for the CLI's --format choices and help: naming a format must not load
// every formatter (the CLI imports only the ones a run writes, see load.ts). The map in index.ts and
// the loaders in load.ts must each cover exactly these names, which the compiler checks.
import type { Report } from '../types.js';
import type { FormatOptions } from './options.js';

// Frozen: exported, and what formatReport() accepts; a caller's push() must not add a format that has no formatter.
export const formatNames = Object.freeze(['human', 'json', 'ndjson', 'sarif', 'junit', 'github', 'markdown', 'html'] as const);

export type FormatName = (typeof formatNames)[number];

/** A pure function of the report, as pieces of text: a large report is written without being held whole. */
export type Formatter = (report: Report, options: FormatOptions) => Iterable<string>;

export function isFormatName(name: string): name is FormatName {
  return (formatNames as readonly string[]).includes(name);
}

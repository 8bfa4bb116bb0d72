// The output formats, by name. The CLI derives --format's choices and help from this map.
import type { Report } from '../types.js';
import { formatHuman } from './human.js';
import { formatJson } from './json.js';
import type { FormatOptions } from './options.js';

export type Formatter = (report: Report, options: FormatOptions) => string;

export const formatters = {
  human: formatHuman,
  json: formatJson,
} satisfies Record<string, Formatter>;

export type FormatName = keyof typeof formatters;

export const formatNames = Object.keys(formatters) as FormatName[];

export function isFormatName(name: string): name is FormatName {
  return Object.hasOwn(formatters, name);
}

export type { FormatOptions } from './options.js';
export { defaultFormatOptions } from './options.js';

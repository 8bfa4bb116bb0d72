// Reads a JSON file the user named (schema, codes, config). Any failure is a UsageError whose one
// line names the file, and for bad JSON the line and column: these end the run with exit 2.
import { readFileSync } from 'node:fs';
import { UsageError, describeError } from './errors.js';
import { LineIndex } from './framing/document.js';
import { locateParseError } from './framing/parse-error.js';

export function readJsonFile(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} ${path}: ${describeError(error)}`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text);
  } catch (error) {
    const failure = locateParseError(text, error);
    const { line, column } = new LineIndex(text).position(failure.offset);
    throw new UsageError(`${what} ${path}:${line}:${column}: ${failure.message}`);
  }
}

// The bundled registry (data/codes.json) merged with the user's `--codes` files. A user's file is
// validated against data/codes.schema.json so that a mistake names the file and the place in it;
// the bundled one is the package's own data, checked by the test suite instead of at every start.
import type { ValidateFunction } from 'ajv';
import { bundledCodesPath, readJsonAsset } from '../assets.js';
import { UsageError } from '../errors.js';
import { compileOwnSchema } from '../lazy.js';
import { readJsonFile } from '../load-json.js';
import { CodeRegistry, type CodesFile } from './registry.js';

let validateCodesFile: ValidateFunction | undefined;

export function validateCodesData(data: unknown, path: string): CodesFile {
  validateCodesFile ??= compileOwnSchema(readJsonAsset('data/codes.schema.json') as object, { allErrors: true });
  if (validateCodesFile(data)) return data as CodesFile;
  const first = validateCodesFile.errors?.[0];
  const where = first?.instancePath ? ` at ${first.instancePath}` : '';
  throw new UsageError(`codes file ${path}${where}: ${first?.message ?? 'invalid'} (expected {"errorCodes": {"<category>": ["code", ...]}, "warningCodes": ["code", ...]})`);
}

export function loadRegistry(extraFiles: readonly string[] = []): CodeRegistry {
  const files = [readJsonFile(bundledCodesPath, 'codes file') as CodesFile];
  for (const path of extraFiles) files.push(validateCodesData(readJsonFile(path, 'codes file'), path));
  return new CodeRegistry(files);
}

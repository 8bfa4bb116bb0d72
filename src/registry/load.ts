// The bundled registry (data/codes.json) merged with the user's `--codes` files. A user's file is
// validated against data/codes.schema.json so that a mistake names the file and the place in it;
// the bundled one is the package's own data, checked by the test suite instead of at every start.
import { bundledCodesPath } from '../assets.js';
import { readJsonFile, readValidatedJsonFile } from '../load-json.js';
import { CodeRegistry, type CodesFile } from './registry.js';

export function readCodesFile(path: string): CodesFile {
  return readValidatedJsonFile<CodesFile>(path, 'codes file', 'data/codes.schema.json', 'expected {"errorCodes": {"<category>": ["code", ...]}, "warningCodes": ["code", ...]}');
}

export function loadRegistry(extraFiles: readonly string[] = []): CodeRegistry {
  const files = [readJsonFile(bundledCodesPath(), 'codes file') as CodesFile];
  for (const path of extraFiles) files.push(readCodesFile(path));
  return new CodeRegistry(files);
}

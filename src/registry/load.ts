// The bundled registry (data/codes.json) merged with the user's `--codes` files, each validated
// against data/codes.schema.json so that a mistake names the file and the place in it.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { assetPath, bundledCodesPath, readJsonAsset } from '../assets.js';
import { UsageError } from '../errors.js';
import { readJsonFile } from '../load-json.js';
import { CodeRegistry, type CodesFile } from './registry.js';

let validateCodesFile: ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null } | undefined;

function validated(data: unknown, path: string): CodesFile {
  validateCodesFile ??= new Ajv2020({ allErrors: true }).compile(readJsonAsset('data/codes.schema.json') as object);
  if (validateCodesFile(data)) return data as CodesFile;
  const first = validateCodesFile.errors?.[0];
  const where = first?.instancePath ? ` at ${first.instancePath}` : '';
  throw new UsageError(`codes file ${path}${where}: ${first?.message ?? 'invalid'} (expected {"errorCodes": {"<category>": ["code", ...]}, "warningCodes": ["code", ...]})`);
}

export function loadRegistry(extraFiles: readonly string[] = []): CodeRegistry {
  const files = [validated(readJsonFile(bundledCodesPath, 'codes file'), assetPath('data/codes.json'))];
  for (const path of extraFiles) files.push(validated(readJsonFile(path, 'codes file'), path));
  return new CodeRegistry(files);
}

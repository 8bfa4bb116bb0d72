// Files the package ships beside dist/: resolved from this module so the CLI works from any cwd
// and from an installed package alike.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const packageRoot = new URL('../', import.meta.url);

export function assetPath(relative: string): string {
  return fileURLToPath(new URL(relative, packageRoot));
}

export function readJsonAsset(relative: string): unknown {
  return JSON.parse(readFileSync(assetPath(relative), 'utf8'));
}

export const bundledSchemaPath = assetPath('data/agent-tool-result.schema.json');
export const bundledCodesPath = assetPath('data/codes.json');

export const packageVersion: string = (readJsonAsset('package.json') as { version: string }).version;

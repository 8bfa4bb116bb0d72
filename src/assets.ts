// Files the package ships beside dist/, resolved from the package root, so that the CLI works from
// any cwd, from an installed package, and from either build: tsc's output (dist/*.js,
// dist/<stage>/*.js) and the CLI bundle (dist/cli/*.js) sit at different depths below the root.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The nearest folder above this module that holds a package.json: ours (two stats at most). */
function findPackageRoot(): URL {
  for (let folder = new URL('./', import.meta.url); ; ) {
    if (existsSync(new URL('package.json', folder))) return folder;
    const parent = new URL('../', folder);
    if (parent.href === folder.href) throw new Error(`mcec-result: no package.json above ${import.meta.url}`);
    folder = parent;
  }
}

let packageRoot: URL | undefined;

export function assetPath(relative: string): string {
  return fileURLToPath(new URL(relative, (packageRoot ??= findPackageRoot())));
}

export function readJsonAsset(relative: string): unknown {
  return JSON.parse(readFileSync(assetPath(relative), 'utf8'));
}

/** A bundled envelope schema, by its file (src/checks/schema-versions.ts names each version's). */
export const bundledSchemaPath = (file: string): string => assetPath(file);
export const bundledCodesPath = (): string => assetPath('data/codes.json');

let manifest: { version: string; homepage: string } | undefined;

/** Read when a report, --version or --help needs it, not at import. */
const packageManifest = () => (manifest ??= readJsonAsset('package.json') as { version: string; homepage: string });

export function packageVersion(): string {
  return packageManifest().version;
}

/** package.json's `homepage`: the one place that names the project's home. */
export function packageHomepage(): string {
  return packageManifest().homepage;
}

/** Where a file of this release is read online: `docs/cli.md` under the homepage, at the version's tag. */
export function releaseFileUrl(path: string): string {
  return `${packageHomepage()}/blob/v${packageVersion()}/${path}`;
}

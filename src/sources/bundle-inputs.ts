// What one argument's files become once bundles and zips are known (spec section 8.2): bundle
// files marked, environment.json left out (said in one stderr line when named), and each zip
// replaced by its input entries, or left out when a walk or glob found it and it holds no bundle,
// or when it lies beside the bundle folder holding the same files.
import { underWorkingDirectory } from '../paths.js';
import type { InputFailure } from '../types.js';
import { besideItsFolder, expandZip, FolderLister, isZipName, placeInBundles, type Placed } from './bundles.js';

/** A path named as the user would: relative when under the working directory, with forward slashes. */
function shown(path: string): string {
  const here = underWorkingDirectory(path);
  return (here === undefined ? path : here || '.').replaceAll('\\', '/');
}

export function inBundlesAndZips() {
  // Folders are listed once for the whole command line.
  const lister = new FolderLister();
  return {
    async expand(files: readonly Placed[], searched: boolean, root: string | undefined, failures: InputFailure[], notes: string[]): Promise<Placed[]> {
      const out: Placed[] = [];
      const plain = files.filter((file) => file.source.path === undefined || !isZipName(file.source.path) || file.source.special);
      const { metadata } = placeInBundles(plain, lister, root);
      if (!searched) for (const file of metadata) notes.push(`${file.source.name} is an evidence bundle's environment.json, metadata: not read`);
      const left = new Set(metadata);
      const notZip = new Set(plain);
      for (const file of files) {
        if (left.has(file)) continue;
        if (!notZip.has(file)) {
          const folder = searched ? besideItsFolder(file.key, lister) : undefined;
          if (folder !== undefined) {
            notes.push(`${file.source.name} skipped: the bundle folder ${shown(folder)} beside it holds the same files (name the zip to check it too)`);
            continue;
          }
          const zip = await expandZip(file.source.name, file.source.path!);
          if (searched && !zip.holdsBundle) continue;
          failures.push(...zip.failures);
          if (!searched && zip.sources.length === 0 && zip.failures.length === 0) failures.push({ source: file.source.name, message: `no input files in ${file.source.name}` });
          for (const source of zip.sources) out.push({ source, key: `${file.key}!/${source.entry!}` });
          continue;
        }
        out.push(file);
      }
      return out;
    },
  };
}

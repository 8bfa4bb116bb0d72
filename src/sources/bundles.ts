// MCEC evidence bundles (spec section 8.2), as folders and as zips: which found files belong to a
// bundle, which are its metadata, and which zips are read. A bundle is a folder whose direct
// children include tool-calls.jsonl (or .jsonl.gz), or session.json with environment.json or
// failure-summary.md. Its session.json is bundle metadata, checked against its transcript only;
// its environment.json is not read at all.
import { readdirSync } from 'node:fs';
import { basename, dirname, relative, resolve, sep } from 'node:path';
import { describeError } from '../errors.js';
import type { InputFailure } from '../types.js';
import { byCodePoint } from '../findings/order.js';
import type { BundleRole, InputSource } from './input-source.js';
import { listZip, type ZipEntry } from './zip.js';

const transcriptNames = new Set(['tool-calls.jsonl', 'tool-calls.jsonl.gz']);

/** Spec section 8.2's recognition, on a folder's direct children (names in any case). */
export function isBundle(children: Iterable<string>): boolean {
  let session = false;
  let beside = false;
  for (const child of children) {
    const name = child.toLowerCase();
    if (transcriptNames.has(name)) return true;
    if (name === 'session.json') session = true;
    if (name === 'environment.json' || name === 'failure-summary.md') beside = true;
  }
  return session && beside;
}

function hasTranscript(children: Iterable<string>): boolean {
  for (const child of children) if (transcriptNames.has(child.toLowerCase())) return true;
  return false;
}

function roleOf(name: string): BundleRole | 'environment' | undefined {
  const lower = name.toLowerCase();
  if (lower === 'session.json') return 'session';
  if (lower === 'environment.json') return 'environment';
  if (transcriptNames.has(lower)) return 'transcript';
  return undefined;
}

/** A folder's children by name, listed and judged once per expansion; none when it cannot be listed. */
export class FolderLister {
  private readonly listed = new Map<string, string[]>();
  private readonly bundles = new Map<string, { bundle: boolean; transcript: boolean }>();

  children(folder: string): string[] {
    let names = this.listed.get(folder);
    if (names === undefined) {
      try {
        names = readdirSync(folder);
      } catch {
        names = [];
      }
      this.listed.set(folder, names);
    }
    return names;
  }

  private judged(folder: string): { bundle: boolean; transcript: boolean } {
    let verdict = this.bundles.get(folder);
    if (verdict === undefined) {
      const children = this.children(folder);
      verdict = { bundle: isBundle(children), transcript: hasTranscript(children) };
      this.bundles.set(folder, verdict);
    }
    return verdict;
  }

  isBundle(folder: string): boolean {
    return this.judged(folder).bundle;
  }

  hasTranscript(folder: string): boolean {
    return this.judged(folder).transcript;
  }
}

/** A source found on disk, with the resolved path its membership is decided from. */
export interface Placed {
  source: InputSource;
  key: string;
}

/** A bundle folder named as the file in it is: `./b1` for `./b1/tool-calls.jsonl`, so that units sort as files do. */
function unitName(file: Placed, folder: string): string {
  const inside = relative(folder, file.key).replaceAll(sep, '/');
  return file.source.name.slice(0, Math.max(0, file.source.name.length - inside.length - 1));
}

/**
 * Marks the bundle files among `files` (in place) and says which to leave out: environment.json of
 * a bundle is never read. `root` is the folder walked (a bundle around a file is looked for up to
 * it; without one, only the file's own folder is): the shard unit of a file in a bundle is the
 * nearest bundle folder, so that a nested bundle is a unit of its own.
 */
export function placeInBundles(files: readonly Placed[], lister: FolderLister, root?: string): { kept: Placed[]; metadata: Placed[] } {
  const kept: Placed[] = [];
  const metadata: Placed[] = [];
  for (const file of files) {
    const folder = dirname(file.key);
    if (lister.isBundle(folder)) {
      const role = roleOf(basename(file.key));
      if (role === 'environment') {
        metadata.push(file);
        continue;
      }
      file.source.bundle = { key: folder, ...(role && { role }), ...(role === 'session' && !lister.hasTranscript(folder) && { noTranscript: true as const }) };
      file.source.unit = unitName(file, folder);
    } else if (root !== undefined) {
      for (let up = dirname(folder); up.length >= root.length && up !== folder; up = dirname(up)) {
        if (lister.isBundle(up)) {
          file.source.unit = unitName(file, up);
          break;
        }
        if (up === root || dirname(up) === up) break;
      }
    }
    kept.push(file);
  }
  return { kept, metadata };
}

/** The extensions of input entries in a zip, as a walk finds input files. */
const inputEntry = /\.(?:json|jsonl|ndjson|log)(?:\.gz)?$/i;

/** Folders of a zip (`''` for its root, else ending with `/`) and their direct children's names. */
function zipFolders(entries: readonly ZipEntry[]): Map<string, string[]> {
  const folders = new Map<string, string[]>();
  for (const { name } of entries) {
    if (name.endsWith('/')) continue;
    const cut = name.lastIndexOf('/');
    const folder = name.slice(0, cut + 1);
    const children = folders.get(folder) ?? [];
    children.push(name.slice(cut + 1));
    folders.set(folder, children);
  }
  return folders;
}

export interface ZipExpansion {
  sources: InputSource[];
  failures: InputFailure[];
  /** Whether the archive holds a bundle: a zip a walk or glob finds is read only then. */
  holdsBundle: boolean;
}

/**
 * A zip's input entries as sources named `<zip>!/<entry>`, each in its bundle; the zip as a whole
 * is one shard unit. Entries that are zips themselves are not opened, and other files (images,
 * failure-summary.md) are no inputs.
 */
export async function expandZip(name: string, path: string): Promise<ZipExpansion> {
  let entries: ZipEntry[];
  try {
    entries = await listZip(path);
  } catch (error) {
    return { sources: [], failures: [{ source: name, message: `cannot read ${name} as a zip archive: ${describeError(error)}` }], holdsBundle: false };
  }
  const folders = zipFolders(entries);
  const bundles = new Set([...folders].filter(([, children]) => isBundle(children)).map(([folder]) => folder));
  const sources: InputSource[] = [];
  for (const entry of [...entries].sort((a, b) => byCodePoint(a.name, b.name))) {
    if (entry.name.endsWith('/') || !inputEntry.test(entry.name)) continue;
    const cut = entry.name.lastIndexOf('/');
    const folder = entry.name.slice(0, cut + 1);
    const role = bundles.has(folder) ? roleOf(entry.name.slice(cut + 1)) : undefined;
    if (role === 'environment') continue;
    const source: InputSource = { name: `${name}!/${entry.name}`, path, entry: entry.name, unit: name };
    if (bundles.has(folder)) {
      source.bundle = { key: `${name}!/${folder}`, ...(role && { role }), ...(role === 'session' && !hasTranscript(folders.get(folder)!) && { noTranscript: true as const }) };
    }
    sources.push(source);
  }
  return { sources, failures: [], holdsBundle: bundles.size > 0 };
}

/** `<root>/<stamp>-<id>.zip` beside the bundle folder `<root>/<stamp>-<id>/` that holds the same files. */
export function besideItsFolder(zipPath: string, lister: FolderLister): string | undefined {
  // A stem that is no folder lists as empty: no bundle.
  const stem = resolve(zipPath).replace(/\.zip$/i, '');
  return lister.isBundle(stem) ? stem : undefined;
}

export const isZipName = (name: string): boolean => /\.zip$/i.test(name);

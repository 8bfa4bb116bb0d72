// Command-line inputs -> the list of sources to read, in the order given (spec section 7, Paths):
// `-` is stdin; an argument that exists on disk is a file or a folder (searched recursively);
// anything else is a glob, and a glob starting with `!` leaves out the files it matches from what
// the folders and globs find. Files found under a folder or glob are sorted by code point.
import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import type FastGlob from 'fast-glob';
import type { OwnFile } from '../context.js';
import { UsageError, describeError, describeReadError } from '../errors.js';
// fast-glob (for a folder) and globby (for a glob) are loaded only when one is given: a run on
// named files should not pay for them at start-up.
import { loadFastGlob, loadGlobby, loadMicromatch } from '../lazy.js';
import { underWorkingDirectory } from '../paths.js';
import type { InputFailure } from '../types.js';
import { byCodePoint } from '../findings/order.js';
import { inBundlesAndZips } from './bundle-inputs.js';
import type { InputSource } from './input-source.js';
import { ownFilesByKey, realPathOf, refuseFoundOverwrite, refuseOverwrite } from './own-files.js';

export const searchedExtensions = ['json', 'jsonl', 'ndjson', 'log'];
// Zips too, read when they hold an evidence bundle (spec section 8.2).
const folderPattern = `**/*.{{${searchedExtensions.join(',')}}{,.gz},zip}`;

function toSlashes(path: string): string {
  return path.replaceAll('\\', '/');
}

/**
 * A glob with its backslashes as separators (Windows' `logs\*.jsonl`), but for one before a bracket,
 * brace or parenthesis, which escapes it as in fast-glob (`names/\[ab\].jsonl`): made a separator,
 * the escape would match nothing. `*` and `?` follow a
 * backslash as a separator only: no Windows name holds them, and `[*]` matches one literally.
 */
function globSlashes(glob: string): string {
  return glob.replace(/\\(?![[\]{}()])/g, '/');
}

// Synchronous: one stat per argument, and node:fs/promises need not be loaded for it.
function statOrUndefined(path: string) {
  try {
    return statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** A source, and the resolved path that tells whether another argument named the same file. */
interface Found {
  source: InputSource;
  key: string;
}

function found(name: string, path = name): Found {
  return { source: { name, path }, key: resolve(path) };
}

/** A link found by a walk is an input when it leads to a file, or nowhere (reading it then says so). */
function linkToFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? true;
  } catch {
    // A loop of links: reading it reports why.
    return true;
  }
}

/** What a folder walk or a glob found, and the folders under it that could not be listed. */
interface Walked {
  files: string[];
  failures: InputFailure[];
}

/**
 * The files a folder walk or a glob finds: regular files, and links to files. Links to folders are
 * not followed: one pointing up the tree would make a glob loop, on two such links for hours
 * (fast-glob follows each until the path is too long), finding the same files again under other names.
 * `name` gives a folder the walk could not list the name the report shows; the folder walked
 * failing, or the glob's own folder, fails the whole argument.
 */
async function walk(arg: string, pattern: string, cwd?: string, anyCase = false, name?: (folder: string) => string): Promise<Walked | InputFailure> {
  // Synchronous: nothing else runs while inputs are listed, and sync with objectMode costs no more
  // than async with plain paths (async with objectMode does).
  // A folder (`cwd`, with a pattern of ours) is walked by fast-glob itself: globby adds nothing a
  // walk of one pattern uses (it reads globs, merges the paths of several patterns), and costs
  // loading its modules and normalizing every path into a Set.
  const sync: (pattern: string, options: FastGlob.Options & { objectMode: true }) => FastGlob.Entry[] = cwd === undefined ? (await loadGlobby()).globbySync : (await loadFastGlob()).default.sync;
  // fast-glob stops at the first folder it cannot list (when the error is not ENOENT): one locked
  // folder deep in a tree would lose every file of the walk. Listed here, it is an empty folder to
  // fast-glob and an unreadable input to the report.
  const unlisted: NodeJS.ErrnoException[] = [];
  const listFolder = ((path: string, options?: object) => {
    try {
      return readdirSync(path, options as { withFileTypes: true });
    } catch (error) {
      // A folder removed during the walk is nothing to report, as fast-glob has it.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw error;
      unlisted.push(error as NodeJS.ErrnoException);
      return [];
    }
  }) as typeof readdirSync;
  let entries;
  try {
    // `check .` at a project's root leaves node_modules out (thousands of package.json files are no
    // envelopes), as every JavaScript tool does; a glob that names node_modules still goes there.
    const ignore = pattern.includes('node_modules') ? [] : ['**/node_modules/**'];
    // `unique: false`: fast-glob's own index of every path found is a cost per path, and needless:
    // one pattern finds each path once, globby drops repeated ones itself, and expandInputs
    // drops files named twice anyway.
    entries = sync(pattern, { ...(cwd !== undefined && { cwd }), onlyFiles: false, followSymbolicLinks: false, objectMode: true, caseSensitiveMatch: !anyCase, ignore, unique: false, fs: { readdirSync: listFolder } });
  } catch (error) {
    return walkFailure(arg, error);
  }
  const files: string[] = [];
  for (const { path, dirent } of entries) {
    if (dirent.isFile() || (dirent.isSymbolicLink() && linkToFile(cwd === undefined ? path : join(cwd, path)))) files.push(path);
  }
  const root = resolve(cwd ?? '.');
  const failures: InputFailure[] = [];
  for (const error of unlisted) {
    const folder = error.path === undefined ? undefined : resolve(root, error.path);
    if (folder === undefined || folder === root) return walkFailure(arg, error);
    const shown = name ? name(folder) : shownPath(folder);
    failures.push({ source: shown, message: `cannot read ${shown}: ${describeError(error)}` });
  }
  return { files: files.sort(byCodePoint), failures };
}

/** A path named as the user would: relative when under the working directory, with forward slashes. */
function shownPath(path: string): string {
  const fromHere = isAbsolute(path) ? underWorkingDirectory(path) : undefined;
  return toSlashes(fromHere === undefined ? path : fromHere || '.');
}

/** A folder the walk could not read, named as the user would (relative when under the working directory). */
function walkFailure(arg: string, error: unknown): InputFailure {
  const at = (error as NodeJS.ErrnoException).path;
  const shown = at === undefined ? toSlashes(arg) : shownPath(at);
  return { source: arg, message: `cannot read ${shown}: ${describeError(error)}` };
}

/** What one argument names: `searched` when a folder walk or a glob found the files (maybe none). */
interface Expanded {
  files: Found[];
  searched: boolean;
  /** Folders under the argument that could not be listed: the rest of it is still checked. */
  failures?: InputFailure[];
  /** The folder walked: a bundle around a file found in it is looked for up to here. */
  root?: string;
}

async function expandOne(arg: string, stdinName: string): Promise<Expanded | InputFailure> {
  if (arg === '-') return { files: [{ source: { name: stdinName }, key: '\0stdin' }], searched: false };
  const asGiven = toSlashes(arg);
  let info;
  let path = arg;
  try {
    info = statOrUndefined(arg) ?? (asGiven !== arg ? statOrUndefined((path = asGiven)) : undefined);
  } catch (error) {
    return { source: asGiven, message: `cannot read ${asGiven}: ${describeReadError(asGiven, error)}` };
  }
  if (info?.isDirectory()) {
    // RESULT.JSON, as Windows tools name files, is searched for too: framing reads the name in any case.
    const base = asGiven.replace(/\/+$/, '');
    // globby's paths are normalised already: the folder is resolved once, not each of its 10k files.
    const folder = resolve(path);
    // A folder inside is named as the files beside it are: under the argument as given.
    const walked = await walk(asGiven, folderPattern, path, true, (inside) => `${base}/${toSlashes(relative(folder, inside))}`);
    if ('message' in walked) return walked;
    const listed = walked.files.map((inFolder) => {
      const name = `${base}/${inFolder}`;
      return { source: { name, path: name }, key: `${folder}${sep}${sep === '/' ? inFolder : inFolder.replaceAll('/', sep)}` };
    });
    return { files: listed, searched: true, failures: walked.failures, root: folder };
  }
  if (info) {
    const file = found(asGiven, path);
    if (!info.isFile()) file.source.special = true;
    return { files: [file], searched: false };
  }
  const { isDynamicPattern } = await loadGlobby();
  const glob = globSlashes(arg);
  if (!isDynamicPattern(glob)) return { source: asGiven, message: `cannot read ${asGiven}: ${describeReadError(asGiven, undefined)}` };
  const walked = await walk(arg, glob);
  if ('message' in walked) return walked;
  return { files: walked.files.map((name) => found(name)), searched: true, failures: walked.failures };
}

/** An argument that leaves files out: `!` and a glob, unless a file of that name exists. */
function isExclusion(arg: string): boolean {
  if (!arg.startsWith('!')) return false;
  try {
    return statOrUndefined(arg) === undefined;
  } catch {
    // Something is there that cannot be looked at: reading it as a path says what.
    return false;
  }
}

/**
 * Whether a found file is left out by an exclusion. A pattern is matched against the name the
 * report gives the file (relative names without a leading `./`) and against its absolute path, so
 * `!logs/old/**` and `!/srv/logs/old/**` both work; `dot`, because a pattern naming a folder should
 * leave out its dotfiles too.
 */
async function exclusionTest(patterns: readonly string[]): Promise<(found: Found) => boolean> {
  const { default: micromatch } = await loadMicromatch();
  const tests = patterns.map((pattern) => micromatch.matcher(pattern, { dot: true }));
  return ({ source, key }) => {
    const name = source.name.replace(/^(\.\/)+/, '');
    const absolute = toSlashes(key);
    return tests.some((test) => test(name) || test(absolute));
  };
}

/** Something is at the path (or cannot be looked at, which reading it then says). */
function isThere(path: string): boolean {
  try {
    return statOrUndefined(path) !== undefined;
  } catch {
    return true;
  }
}

/**
 * `merge`'s arguments: files, `-` (standard input) and globs, which a Windows shell does not expand
 * (`merge part-*.json` said "cannot read report part-*.json"), expanded as check expands them.
 */
export async function expandReportPaths(args: readonly string[]): Promise<string[]> {
  const paths: string[] = [];
  for (const arg of args) {
    // globby threw on it: "unexpected failure: Patterns must be a string (non empty)".
    if (arg === '') throw new UsageError('a report argument is empty: name a report file or glob, or - for standard input');
    const asGiven = toSlashes(arg);
    const glob = globSlashes(arg);
    if (arg === '-' || isThere(arg) || (asGiven !== arg && isThere(asGiven)) || !(await loadGlobby()).isDynamicPattern(glob)) {
      paths.push(arg);
      continue;
    }
    // globby reads a lone `!x` as "everything but x": merge would have read every file here.
    if (arg.startsWith('!')) throw new UsageError(`${arg}: merge leaves no files out: name the reports, or a glob that matches only them`);
    const walked = await walk(arg, glob);
    if ('message' in walked) throw new UsageError(walked.message);
    // A report in a folder that could not be listed would be left out of the merge without a word.
    if (walked.failures[0]) throw new UsageError(walked.failures[0].message);
    const { files } = walked;
    if (files.length === 0) throw new UsageError(`no reports in ${arg}: the glob matches no file`);
    paths.push(...files);
  }
  return paths;
}

/** Each file once, in the order first named: `a.json`, `./a.json` and a link to it are one file, as inputs of check are. */
export function uniquePaths(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  return paths.filter((path) => {
    const key = realPathOf(path);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * Standard input and a file under one name (`cat new.jsonl | check - a.jsonl --stdin-filename
 * a.jsonl`) would be one source in the report, the baseline and the merged distributions: nothing
 * would tell their findings apart, and a baseline written so would match either.
 */
function refuseStdinTwin(sources: readonly InputSource[], stdinName: string): void {
  if (!sources.some((source) => source.path === undefined)) return;
  const key = resolve(stdinName);
  const twin = sources.find((source) => source.path !== undefined && resolve(source.path) === key);
  if (twin) {
    throw new UsageError(`standard input and the file ${twin.name} would both be named ${stdinName} in the report: give standard input another name (--stdin-filename)`);
  }
}

/**
 * Arguments no input can come of: an empty one (a script's unset variable), a bare `!`, or only
 * exclusions. They are usage errors, as merge's are, refused before anything is read, not input
 * failures with an empty report under them as if files were unreadable.
 */
export function refuseArgumentMistakes(args: readonly string[]): void {
  if (args.includes('')) throw new UsageError('an input argument is empty: name a file, folder or glob, or - for standard input');
  const exclusions = args.filter(isExclusion);
  if (exclusions.includes('!')) throw new UsageError('!: a glob must follow the ! (as in !logs/old/**) to leave files out');
  if (exclusions.length > 0 && exclusions.length === args.length) throw new UsageError(`${exclusions[0]!} only leaves files out: name the files, folders or globs to check as well`);
}

/**
 * Spec section 7's paths, expanded. `own` are the files the run reads as settings or writes: a folder
 * or glob that finds one leaves it out (`check .` must not check the config file, or a report
 * written into the folder by an earlier run, as an envelope), and a file named as an input
 * that the run would write is refused before anything is read.
 */
export async function expandInputs(args: readonly string[], stdinName = '-', own: readonly OwnFile[] = []): Promise<{ sources: InputSource[]; failures: InputFailure[]; notes: string[] }> {
  const sources: InputSource[] = [];
  const failures: InputFailure[] = [];
  const notes: string[] = [];
  const bundles = inBundlesAndZips();
  const seen = new Set<string>();
  refuseArgumentMistakes(args);
  const exclusions = args.filter(isExclusion);
  const wanted = args.filter((arg) => !exclusions.includes(arg));
  const patterns = exclusions.map((arg) => globSlashes(arg.slice(1)));
  const excluded = patterns.length > 0 ? await exclusionTest(patterns) : undefined;
  const owned = own.length > 0 ? ownFilesByKey(own) : undefined;
  for (const arg of wanted) {
    const result = await expandOne(arg, stdinName);
    if ('message' in result) {
      failures.push(result);
      continue;
    }
    let { files } = result;
    if (result.failures) failures.push(...result.failures);
    if (result.searched) {
      if (owned) {
        refuseFoundOverwrite(files, toSlashes(arg), owned);
        files = files.filter((f) => !owned.has(f.key));
      }
      // A file named on the command line is checked: exclusions narrow what folders and globs find.
      const beforeExclusions = files.length;
      if (excluded) files = files.filter((f) => !excluded(f));
      // A folder that could not be listed says already why nothing was found.
      if (files.length === 0 && !result.failures?.length) {
        const why = beforeExclusions === 0 ? '' : `: ${exclusions.join(' ')} left out all ${beforeExclusions}`;
        // As typed: with its backslashes made slashes, an escaped glob would read as another one.
        failures.push({ source: arg, message: `no input files in ${arg}${why}` });
        continue;
      }
    } else if (owned && files[0]?.source.path !== undefined) {
      refuseOverwrite(files[0].source.name, files[0].source.path, owned);
    }
    files = await bundles.expand(files, result.searched, result.root, failures, notes);
    for (const { source, key } of files) {
      if (seen.has(key)) continue;
      seen.add(key);
      sources.push(source);
    }
  }
  refuseStdinTwin(sources, stdinName);
  return { sources, failures, notes };
}

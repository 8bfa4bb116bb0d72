// What the expansion of the command line hands on: one input to read and, for a file of an evidence
// bundle, its part in the bundle. Types only, and a leaf: expansion (expand.ts), bundle recognition
// (bundles.ts) and every later stage name them without importing one another.

export interface InputSource {
  /** The name used in reports. */
  name: string;
  /** Path to open; undefined for standard input. */
  path?: string;
  /**
   * Named, and no regular file (a FIFO, `<(zcat run.gz)`, a device): read off the main thread, whose
   * open or read may wait for a writer. Walks find regular files only, so only a named input is one.
   */
  special?: true;
  /** An entry of the zip at `path` (spec section 8.2): read out of the archive, named `<zip>!/<entry>`. */
  entry?: string;
  /** The unit `--shard` deals out, when not the source alone: its bundle folder, or its zip. */
  unit?: string;
  /** The evidence bundle it belongs to. */
  bundle?: BundleMembership;
}

/** A bundle file's part in it. */
export type BundleRole = 'session' | 'transcript';

/** Which bundle a source belongs to, for the cross-checks of session.json and its transcript. */
export interface BundleMembership {
  /** The bundle folder (resolved path, or `<zip name>!/<folder>`): one key per bundle. */
  key: string;
  role?: BundleRole;
  /** session.json only: the bundle holds no tool-calls.jsonl (a run that made no tool call). */
  noTranscript?: true;
}

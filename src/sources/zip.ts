// A .zip read as a folder (spec section 8.2): its central directory lists the entries, and an input
// entry is streamed out of it, inflated only as far as its bounds allow. yauzl (loaded on first use)
// reads the directory without inflating anything, turns `\` in names into `/`, and fails a stream
// whose inflated bytes pass the size its entry declares, so the declared size checked here is a
// bound the data cannot exceed.
import type { Readable } from 'node:stream';
import { InputDataError } from './decode.js';
import { packageRequire } from '../lazy.js';

/** The part of yauzl's Entry this module reads. */
interface YauzlEntry {
  fileName: string;
  compressedSize: number;
  uncompressedSize: number;
  compressionMethod: number;
  isEncrypted(): boolean;
  canDecodeFileData(): boolean;
}

interface YauzlZipFile {
  eachEntry(): AsyncIterable<YauzlEntry>;
  openReadStreamPromise(entry: YauzlEntry): Promise<Readable>;
  close(): void;
}

interface Yauzl {
  openPromise(path: string, options: { autoClose: boolean; validateEntrySizes: boolean; strictFileNames: boolean }): Promise<YauzlZipFile>;
}

const loadYauzl = (): Yauzl => packageRequire('yauzl') as Yauzl;

/** The default of --max-zip-entry-bytes: 1 GiB. */
export const defaultMaxZipEntryBytes = 1024 * 1024 * 1024;
/** Past this many inflated bytes, an entry may inflate at most `maxRatio` times its stored size. */
const ratioFloor = 1024 * 1024;
const maxRatio = 1000;

/** One entry as the central directory lists it. */
export interface ZipEntry {
  /** With `/` separators; a folder's ends with `/`. */
  name: string;
  size: number;
  compressedSize: number;
  encrypted: boolean;
  /** yauzl can inflate it (stored or deflated, not encrypted). */
  decodable: boolean;
}

/** Whether a file starts as a zip archive does (a local file header, or an empty archive's end record). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));
}

/** The archive's entries, from its central directory: nothing is inflated. */
export async function listZip(path: string): Promise<ZipEntry[]> {
  const zip = await loadYauzl().openPromise(path, { autoClose: true, validateEntrySizes: true, strictFileNames: false });
  const entries: ZipEntry[] = [];
  for await (const entry of zip.eachEntry()) {
    entries.push({ name: entry.fileName, size: entry.uncompressedSize, compressedSize: entry.compressedSize, encrypted: entry.isEncrypted(), decodable: entry.canDecodeFileData() });
  }
  return entries;
}

/** An entry refused before a byte of it was inflated: an input not read, as an unreadable file is. */
export class RefusedEntry extends InputDataError {}

/** Why an entry is not read, or undefined when it may be: encrypted, unsupported, or a zip bomb. */
export function refusal(entry: ZipEntry, maxBytes: number): string | undefined {
  if (entry.encrypted) return `${entry.name} is encrypted: extract it with its password and check the files`;
  if (!entry.decodable) return `${entry.name} uses a compression method mcec-result does not read (only stored and deflated): extract it and check the files`;
  if (entry.size > maxBytes) return `${entry.name} inflates to ${entry.size} bytes, more than --max-zip-entry-bytes (${maxBytes}): a zip bomb? Extract it and check the file, or raise the limit`;
  if (entry.size > ratioFloor && entry.size > entry.compressedSize * maxRatio) {
    return `${entry.name} inflates ${Math.floor(entry.size / Math.max(1, entry.compressedSize))} times its stored size (${entry.size} bytes): a zip bomb? Extract it and check the file`;
  }
  return undefined;
}

/**
 * One entry's inflated bytes, streamed. Refused before a byte is inflated when `refusal` says so;
 * yauzl fails the stream if the data inflates past the size the directory declared.
 */
export async function* zipEntryChunks(path: string, name: string, maxBytes: number): AsyncGenerator<Buffer> {
  const zip = await loadYauzl().openPromise(path, { autoClose: false, validateEntrySizes: true, strictFileNames: false });
  try {
    let found: YauzlEntry | undefined;
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName === name) {
        found = entry;
        break;
      }
    }
    if (!found) throw new RefusedEntry(`${name} is no longer in the archive`);
    const why = refusal({ name, size: found.uncompressedSize, compressedSize: found.compressedSize, encrypted: found.isEncrypted(), decodable: found.canDecodeFileData() }, maxBytes);
    if (why !== undefined) throw new RefusedEntry(why);
    const stream = await zip.openReadStreamPromise(found);
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw new InputDataError(`${name} cannot be inflated: ${(error as Error).message}`);
    }
  } finally {
    zip.close();
  }
}

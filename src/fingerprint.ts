// A stable digest of a JSON value: member order ignored, so that the same record written by another
// serializer has the same fingerprint. Records come from untrusted producers and may nest 100k deep
// or hold millions of values: a value is written by recursion only down to a fixed depth and up to
// a fixed number of values, and past either by an explicit stack, piece by piece. The same walk
// writes a call's canonical arguments (src/recovery/canonical.ts), with its own number writer.
import { loadCrypto } from './lazy.js';

/** How a walk writes a number: canonical JSON writes it as JSON.stringify does; recovery by its exact decimal value. */
export type NumberWriter = (n: number) => string;

/** JSON.stringify's text of a number (fingerprints: a record's numbers as JSON.parse left them). */
export const jsonNumber: NumberWriter = (n) => JSON.stringify(n);

/** An open container of the walk: the next member to write is at `index`. */
type Open = { array: readonly unknown[]; keys?: undefined; index: number } | { array?: undefined; object: Record<string, unknown>; keys: string[]; index: number };

/**
 * The canonical text of `value`, handed to `write` a piece at a time, with its own stack: one entry
 * per open container, not per value (a huge array would hold a frame per item).
 */
export function writeCanonical(value: unknown, write: (piece: string) => void, writeNumber: NumberWriter = jsonNumber): void {
  const stack: Open[] = [];
  let next: unknown = value;
  for (;;) {
    if (Array.isArray(next)) {
      write('[');
      stack.push({ array: next, index: 0 });
    } else if (typeof next === 'object' && next !== null) {
      write('{');
      stack.push({ object: next as Record<string, unknown>, keys: sortedNames(Object.keys(next)), index: 0 });
    } else {
      write(typeof next === 'number' ? writeNumber(next) : (JSON.stringify(next) ?? 'null'));
    }
    // Close what is complete, then take the next member of the innermost open container.
    for (;;) {
      const top = stack.at(-1);
      if (top === undefined) return;
      if (top.array) {
        if (top.index < top.array.length) {
          if (top.index > 0) write(',');
          next = top.array[top.index++];
          break;
        }
        write(']');
      } else {
        if (top.index < top.keys.length) {
          const key = top.keys[top.index++]!;
          write(`${top.index > 1 ? ',' : ''}${JSON.stringify(key)}:`);
          next = top.object[key];
          break;
        }
        write('}');
      }
      stack.pop();
    }
  }
}

/** The walk with its own stack, for any depth and size, as one string. */
export function canonicalJsonDeep(value: unknown, writeNumber: NumberWriter = jsonNumber): string {
  const out: string[] = [];
  writeCanonical(value, (piece) => out.push(piece), writeNumber);
  return out.join('');
}

/** Deeper than this, recursion gives up and the whole value is written by the explicit stack. */
const maxRecursion = 200;
/**
 * Past this many values too: a string built by `+=` is a rope of a node per piece, gigabytes for a
 * line of millions of values. Such a value is hashed piece by piece.
 */
const maxRecursiveValues = 100_000;

class GiveUp extends Error {}

/** Values recursion may still write (set before each walk): a counter, not a parameter, on the hot path. */
let valuesLeft = 0;

/** Arrays of at most this many names are sorted by insertion, in place. */
const insertionSortedNames = 16;

/**
 * `names`, sorted in place by UTF-16 code units (as `sort()` sorts strings): an object's member
 * names, for canonical text. Most writers keep one order, so an array already sorted is only
 * looked at; a short one is sorted by insertion, as Array.prototype.sort makes a work array of
 * its own at every call.
 */
export function sortedNames(names: string[]): string[] {
  if (names.length > insertionSortedNames) {
    for (let i = 1; i < names.length; i++) if (names[i - 1]! > names[i]!) return names.sort();
    return names;
  }
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    let j = i - 1;
    while (j >= 0 && names[j]! > name) {
      names[j + 1] = names[j]!;
      j--;
    }
    names[j + 1] = name;
  }
  return names;
}

/** The same text by recursion: faster on records (baselines fingerprint every record with findings) and on a call's arguments. */
function canonicalShallow(v: unknown, depth: number, writeNumber: NumberWriter): string {
  if (--valuesLeft < 0) throw new GiveUp();
  if (typeof v === 'number') return writeNumber(v);
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null';
  if (depth === maxRecursion) throw new GiveUp();
  if (Array.isArray(v)) {
    let text = '[';
    for (let i = 0; i < v.length; i++) text += `${i > 0 ? ',' : ''}${canonicalShallow(v[i], depth + 1, writeNumber)}`;
    return `${text}]`;
  }
  const keys = sortedNames(Object.keys(v));
  let text = '{';
  for (let i = 0; i < keys.length; i++) text += `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalShallow((v as Record<string, unknown>)[keys[i]!], depth + 1, writeNumber)}`;
  return `${text}}`;
}

/** The text by recursion, or undefined past the depth or the number of values it takes. */
function shallowOrUndefined(value: unknown, limit: number, writeNumber: NumberWriter = jsonNumber): string | undefined {
  valuesLeft = limit;
  try {
    return canonicalShallow(value, 0, writeNumber);
  } catch (error) {
    if (error instanceof GiveUp) return undefined;
    throw error;
  }
}

/**
 * The canonical text of any value, numbers written by `writeNumber`: by recursion when it is small
 * enough, else by the explicit stack (the same text).
 */
export function canonicalText(value: unknown, writeNumber: NumberWriter): string {
  return shallowOrUndefined(value, maxRecursiveValues, writeNumber) ?? canonicalJsonDeep(value, writeNumber);
}

export function canonicalJson(value: unknown): string {
  return shallowOrUndefined(value, Number.POSITIVE_INFINITY) ?? canonicalJsonDeep(value);
}

/** Text handed to the hash at a time by the piecewise walk. */
const hashedAtOnce = 64 * 1024;

export function fingerprint(value: unknown): string {
  const crypto = loadCrypto();
  // crypto.hash: one call, no Hash object (cheaper than createHash for a record's text).
  const text = typeof value === 'string' ? value : shallowOrUndefined(value, maxRecursiveValues);
  if (text !== undefined) return crypto.hash('sha256', text, 'hex').slice(0, 20);
  // The same bytes in pieces: every piece is whole JSON text (JSON.stringify escapes a lone
  // surrogate), so none ends inside a character's UTF-8.
  const hash = crypto.createHash('sha256');
  let pending = '';
  writeCanonical(value, (piece) => {
    pending += piece;
    if (pending.length >= hashedAtOnce) {
      hash.update(pending);
      pending = '';
    }
  });
  hash.update(pending);
  return hash.digest('hex').slice(0, 20);
}

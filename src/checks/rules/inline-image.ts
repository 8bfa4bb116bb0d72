import { childPointer, has, isObject } from '../envelope.js';
import { line, sessionId } from './example-records.js';
import { defineRule } from './rule.js';

// Invariant 5 of spec section 1; what counts as image bytes is spec section 7's definition.
const dataUrl = /^data:[^,]{0,200},/i;
const notBase64 = /[^A-Za-z0-9+/]/;

/**
 * `^[A-Za-z0-9+/]{200,}={0,2}$`, without that regex: V8 ran it out of its stack on a string of ~5.6M
 * characters (a 4 MiB screenshot), and the rule's RangeError failed the whole input, every record
 * after it unread. A search for a character outside the set keeps no state per character.
 */
function isBase64Run(value: string): boolean {
  let end = value.length;
  if (value.charCodeAt(end - 1) === 0x3d) end--;
  if (value.charCodeAt(end - 1) === 0x3d) end--;
  return end >= 200 && !notBase64.test(end === value.length ? value : value.slice(0, end));
}
// MIME base64 (what many encoders write) breaks its lines every 76 characters (PEM every 64), and
// text often ends with a line break: those passed as no image at all. Such a string is base64 in
// lines of one length (the last no longer), with a letter past F somewhere: a list of commit hashes
// or ids a line, which is all hex or of uneven lines, is no image.
const wrappedBase64 = /^[A-Za-z0-9+/]+(?:\r?\n[A-Za-z0-9+/]+)*={0,2}\s*$/;
const notHex = /[G-Zg-z+/]/;

function isWrappedBase64(value: string): number | undefined {
  if (!wrappedBase64.test(value) || !notHex.test(value)) return undefined;
  const lines = value.trimEnd().split(/\r?\n/);
  const width = lines[0]!.length;
  if (lines.length > 1 && (width < 16 || lines.some((line, i) => (i < lines.length - 1 ? line.length !== width : line.length > width)))) return undefined;
  const characters = lines.reduce((n, line) => n + line.length, 0);
  return characters >= 200 ? characters : undefined;
}

function imageBytesIn(value: unknown, key: string | number, inArray: boolean): string | undefined {
  if (key === 'base64' && !inArray) return 'a base64 member';
  if (typeof value !== 'string') return undefined;
  // Most strings are short and start with anything but d/D: no regex call for them.
  if ((value.charCodeAt(0) | 0x20) === 0x64 && dataUrl.test(value)) return 'a data: URL';
  if (value.length < 200) return undefined;
  if (isBase64Run(value)) return `a ${value.length}-character base64 string`;
  const characters = isWrappedBase64(value);
  if (characters !== undefined) return `a ${characters}-character base64 string`;
  return undefined;
}

/**
 * Whether the walk must visit a member: a container, or a value imageBytesIn could report. Most
 * members of an observation are short strings, numbers and booleans; not stacking them took a
 * seventh off the rule's time, and changes nothing it reports, nor the order it reports in.
 */
function worthVisiting(value: unknown, key: string | number, inArray: boolean): boolean {
  if (typeof value === 'object') return value !== null || (key === 'base64' && !inArray);
  if (typeof value !== 'string') return key === 'base64' && !inArray;
  return key === 'base64' ? !inArray : mayBeImageText(value);
}

/** Whether imageBytesIn could report a string: 200 characters or more, or a data: URL's first letter. */
function mayBeImageText(value: string): boolean {
  return value.length >= 200 || (value.charCodeAt(0) | 0x20) === 0x64;
}

/** Containers nested deeper than this are left to the walk: the look below recurses. */
const lookDepth = 32;

/**
 * Whether a container may hold anything the walk reports: a member named base64, a string of 200
 * characters or more, or one that starts with d/D (a data: URL), at most `lookDepth` levels down;
 * true past them. Most observations hold none, and the walk, which must name the pointer and keep
 * the order, made an array of keys per object: with no image anywhere, it was 4 % of a 1M-line run.
 * for-in allocates nothing on JSON's objects; on a caller's object it may also see inherited
 * members, which can only make the answer true, so the walk decides.
 */
function mayHoldImage(container: object, depth: number): boolean {
  if (depth > lookDepth) return true;
  if (Array.isArray(container)) {
    for (let i = 0; i < container.length; i++) if (mayBeImage(container[i], depth)) return true;
    return false;
  }
  for (const key in container) {
    if (key === 'base64' || mayBeImage((container as Record<string, unknown>)[key], depth)) return true;
  }
  return false;
}

function mayBeImage(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return mayBeImageText(value);
  return typeof value === 'object' && value !== null && mayHoldImage(value, depth + 1);
}

// The walk's open containers (not the values to visit: a stack entry per member of a 20M-item array
// held 20M of them, 3.6 GB), as parallel arrays reused by every record: a quarter of the records
// carry an observation, and an object per container was a visible share of the run's allocations.
// An explicit stack, not recursion: observations come from untrusted producers and may nest deeply.
const openValues: unknown[] = [];
/** An open object's keys; undefined for an array. */
const openKeys: (string[] | undefined)[] = [];
/** The next member of each open container to look at. */
const openNext: number[] = [];
/** The keys from lastObservation down to the value being looked at, by depth (entries deeper than
 * that are stale; the walk is depth-first, so every shallower entry is the current value's ancestor). */
const path: (string | number)[] = [];

function open(value: unknown, keys: string[] | undefined): void {
  openValues.push(value);
  openKeys.push(keys);
  openNext.push(0);
}

function pointerAt(depth: number): string {
  let pointer = '/error';
  for (let d = 0; d <= depth; d++) pointer = childPointer(pointer, path[d]!);
  return pointer;
}

export const inlineImage = defineRule({
  id: 'inline-image',
  defaultSeverity: 'warning',
  description: 'image bytes inlined in error.lastObservation instead of written to an artifact file',
  example: line({
    ok: false,
    error: { code: 'frame-all-black', category: 'capture-blank', detail: 'the frame is all black', lastObservation: { screenshot: 'data:image/png;base64,iVBORw0KGgo=' } },
    sessionId,
  }),
  reads: ['error'],
  check({ error }, _context, out) {
    if (!error || !has(error, 'lastObservation')) return;
    const observation = error['lastObservation'];
    if (observation === null || (typeof observation === 'object' && !mayHoldImage(observation, 0))) return;
    let value: unknown = observation;
    let key: string | number = 'lastObservation';
    let inArray = false;
    for (;;) {
      // Members are looked at in the order they stand, each before the ones inside it.
      const depth = openValues.length;
      path[depth] = key;
      const what = imageBytesIn(value, key, inArray);
      if (what) out.push({ message: `error.lastObservation inlines image bytes (${what}); write them to an artifact file and name the file instead`, pointer: pointerAt(depth) });
      else if (Array.isArray(value)) open(value, undefined);
      else if (isObject(value)) open(value, Object.keys(value));
      // The next member worth a look, in the innermost container that has one left.
      let found = false;
      while (!found && openValues.length > 0) {
        const top = openValues.length - 1;
        const container = openValues[top];
        const keys = openKeys[top];
        const count = keys === undefined ? (container as unknown[]).length : keys.length;
        for (let i = openNext[top]!; i < count; i++) {
          const member = keys === undefined ? (container as unknown[])[i] : (container as Record<string, unknown>)[keys[i]!];
          if (!worthVisiting(member, keys === undefined ? i : keys[i]!, keys === undefined)) continue;
          openNext[top] = i + 1;
          value = member;
          key = keys === undefined ? i : keys[i]!;
          inArray = keys === undefined;
          found = true;
          break;
        }
        if (found) break;
        // Nothing left in it worth a look.
        openValues.pop();
        openKeys.pop();
        openNext.pop();
      }
      if (!found) return;
    }
  },
});

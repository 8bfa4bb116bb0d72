import { childPointer, has, isObject } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

// Invariant 5 of spec section 1; what counts as image bytes is spec section 7's definition.
const dataUrl = /^data:[^,]{0,200},/i;
const base64Run = /^[A-Za-z0-9+/]{200,}={0,2}$/;
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
  if (base64Run.test(value)) return `a ${value.length}-character base64 string`;
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
  return key === 'base64' ? !inArray : value.length >= 200 || (value.charCodeAt(0) | 0x20) === 0x64;
}

// The walk's stack, as parallel arrays reused by every record: a quarter of the records carry an
// observation, and an object per visited value was a visible share of the run's allocations. An
// explicit stack, not recursion: observations come from untrusted producers and may nest deeply.
const stackValues: unknown[] = [];
const stackKeys: (string | number)[] = [];
const stackDepths: number[] = [];
const stackInArray: boolean[] = [];
/** The keys from lastObservation down to the value being looked at, by depth (entries deeper than
 * that are stale; the walk is depth-first, so every shallower entry is the current value's ancestor). */
const path: (string | number)[] = [];

function push(value: unknown, key: string | number, depth: number, inArray: boolean): void {
  stackValues.push(value);
  stackKeys.push(key);
  stackDepths.push(depth);
  stackInArray.push(inArray);
}

function pointerAt(depth: number): string {
  let pointer = '/error';
  for (let d = 0; d <= depth; d++) pointer = childPointer(pointer, path[d]!);
  return pointer;
}

export const inlineImage: EnvelopeRule = {
  id: 'inline-image',
  defaultSeverity: 'warning',
  description: 'image bytes inlined in error.lastObservation instead of written to an artifact file',
  reads: ['error'],
  check({ error }, _context, out) {
    if (!error || !has(error, 'lastObservation')) return;
    const observation = error['lastObservation'];
    if (observation === null) return;
    push(observation, 'lastObservation', 0, false);
    while (stackValues.length > 0) {
      const value = stackValues.pop();
      const key = stackKeys.pop()!;
      const depth = stackDepths.pop()!;
      const inArray = stackInArray.pop()!;
      path[depth] = key;
      const what = imageBytesIn(value, key, inArray);
      if (what) {
        out.push({ message: `error.lastObservation inlines image bytes (${what}); write them to an artifact file and name the file instead`, pointer: pointerAt(depth) });
        continue;
      }
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) if (worthVisiting(value[i], i, true)) push(value[i], i, depth + 1, true);
      } else if (isObject(value)) {
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) {
          const member = value[keys[i]!];
          if (worthVisiting(member, keys[i]!, false)) push(member, keys[i]!, depth + 1, false);
        }
      }
    }
  },
};

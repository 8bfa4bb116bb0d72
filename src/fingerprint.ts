// A stable digest of a JSON value: member order ignored, so that the same record written by another
// serializer has the same fingerprint. Records come from untrusted producers and may nest 100k deep:
// a value is written by recursion only down to a fixed depth, and by an explicit stack when deeper.
import { loadCrypto } from './lazy.js';

type Frame = { kind: 'value'; value: unknown } | { kind: 'text'; text: string };

/** The walk with its own stack, for any depth: a frame object per value and per piece of text. */
export function canonicalJsonDeep(value: unknown): string {
  const out: string[] = [];
  const stack: Frame[] = [{ kind: 'value', value }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.kind === 'text') {
      out.push(frame.text);
      continue;
    }
    const v = frame.value;
    if (Array.isArray(v)) {
      stack.push({ kind: 'text', text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: v[i] });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
      out.push('[');
    } else if (typeof v === 'object' && v !== null) {
      const keys = Object.keys(v).sort();
      stack.push({ kind: 'text', text: '}' });
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: (v as Record<string, unknown>)[keys[i]!] });
        stack.push({ kind: 'text', text: `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:` });
      }
      out.push('{');
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}

/** Deeper than this, recursion gives up and the whole value is written by canonicalJsonDeep. */
const maxRecursion = 200;

class TooDeep extends Error {}

/** The same text by recursion: a third of the time on records (baselines fingerprint every record with findings). */
function canonicalShallow(v: unknown, depth: number): string {
  if (typeof v !== 'object' || v === null) return JSON.stringify(v) ?? 'null';
  if (depth === maxRecursion) throw new TooDeep();
  if (Array.isArray(v)) {
    let text = '[';
    for (let i = 0; i < v.length; i++) text += `${i > 0 ? ',' : ''}${canonicalShallow(v[i], depth + 1)}`;
    return `${text}]`;
  }
  const keys = Object.keys(v).sort();
  let text = '{';
  for (let i = 0; i < keys.length; i++) text += `${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:${canonicalShallow((v as Record<string, unknown>)[keys[i]!], depth + 1)}`;
  return `${text}}`;
}

export function canonicalJson(value: unknown): string {
  try {
    return canonicalShallow(value, 0);
  } catch (error) {
    if (error instanceof TooDeep) return canonicalJsonDeep(value);
    throw error;
  }
}

export function fingerprint(value: unknown): string {
  // crypto.hash: one call, no Hash object (about half the time of createHash for a record's text).
  return loadCrypto().hash('sha256', typeof value === 'string' ? value : canonicalJson(value), 'hex').slice(0, 20);
}

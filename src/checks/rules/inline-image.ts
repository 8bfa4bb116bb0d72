import { childPointer, has, isObject } from '../envelope.js';
import type { EnvelopeRule } from './rule.js';

// Invariant 5 of spec section 1; what counts as image bytes is spec section 7's definition.
const dataUrl = /^data:[^,]{0,200},/i;
const base64Run = /^[A-Za-z0-9+/]{200,}={0,2}$/;

interface Node {
  value: unknown;
  key: string | number;
  parent: Node | undefined;
}

function pointerOf(node: Node): string {
  const keys: (string | number)[] = [];
  for (let n: Node | undefined = node; n; n = n.parent) keys.push(n.key);
  return keys.reverse().reduce<string>((pointer, key) => childPointer(pointer, key), '');
}

function imageBytesIn(node: Node): string | undefined {
  if (node.key === 'base64' && node.parent && !Array.isArray(node.parent.value)) return 'a base64 member';
  if (typeof node.value !== 'string') return undefined;
  if (dataUrl.test(node.value)) return 'a data: URL';
  if (node.value.length >= 200 && base64Run.test(node.value)) return `a ${node.value.length}-character base64 string`;
  return undefined;
}

export const inlineImage: EnvelopeRule = {
  id: 'inline-image',
  defaultSeverity: 'warning',
  description: 'image bytes inlined in error.lastObservation instead of written to an artifact file',
  check({ error }, _context, out) {
    if (!error || !has(error, 'lastObservation')) return;
    const errorNode: Node = { value: error, key: 'error', parent: undefined };
    // An explicit stack, not recursion: observations come from untrusted producers and may nest deeply.
    const stack: Node[] = [{ value: error['lastObservation'], key: 'lastObservation', parent: errorNode }];
    while (stack.length > 0) {
      const node = stack.pop()!;
      const what = imageBytesIn(node);
      if (what) {
        out.push({ message: `error.lastObservation inlines image bytes (${what}); write them to an artifact file and name the file instead`, pointer: pointerOf(node) });
        continue;
      }
      const { value } = node;
      if (Array.isArray(value)) {
        for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], key: i, parent: node });
      } else if (isObject(value)) {
        const keys = Object.keys(value);
        for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: value[keys[i]!], key: keys[i]!, parent: node });
      }
    }
  },
};

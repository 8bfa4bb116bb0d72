// A stable digest of a JSON value: member order ignored, so that the same record written by another
// serializer has the same fingerprint. Iterative, because records come from untrusted producers
// and may nest 100k deep.
import { loadCrypto } from './lazy.js';

type Frame = { kind: 'value'; value: unknown } | { kind: 'text'; text: string };

export function canonicalJson(value: unknown): string {
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

export function fingerprint(value: unknown): string {
  return loadCrypto().createHash('sha256').update(typeof value === 'string' ? value : canonicalJson(value)).digest('hex').slice(0, 20);
}

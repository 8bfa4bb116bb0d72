// Spec section 8.11: in a pretty-printed `.json` document read whole, a finding that points into a
// bare envelope or a structuredContent object sits where the value it points at starts; one that
// points at a missing member (a `required`, say) at the nearest value the record holds above it,
// its parent object's `{`. Framing knows the places (framing/value-starts.ts); this only asks it.
// An envelope parsed out of a text block is no part of the document's text: its findings keep the
// record's line, as do those without a pointer.
import { childPointer, isObject } from '../checks/envelope.js';
import type { RecordFinding, ValuePlace, ValueStarts } from '../types.js';

/**
 * The place of each finding (undefined: the record's line), or undefined when none has one. Asked
 * only of records with findings: the document's values are walked for those alone.
 */
export function valuePlaces(findings: readonly RecordFinding[], starts: ValueStarts, value: unknown, envelope: unknown): (ValuePlace | undefined)[] | undefined {
  let pointers: string[] | undefined;
  let prefix: string | undefined;
  for (const finding of findings) {
    if (finding.pointer === undefined) continue;
    prefix ??= pointerTo(value, envelope);
    if (prefix === undefined) return undefined;
    (pointers ??= []).push(prefix + finding.pointer);
  }
  if (pointers === undefined) return undefined;
  const found = starts.find(pointers);
  let next = 0;
  return findings.map((finding) => (finding.pointer === undefined ? undefined : nearest(found, pointers[next++]!)));
}

/** The place of `pointer`, or of the nearest value above it (the record's root is always found). */
function nearest(found: ReadonlyMap<string, ValuePlace>, pointer: string): ValuePlace | undefined {
  for (let at: string | undefined = pointer; at !== undefined; at = parentOf(at)) {
    const place = found.get(at);
    if (place) return place;
  }
  return undefined;
}

function parentOf(pointer: string): string | undefined {
  return pointer === '' ? undefined : pointer.slice(0, pointer.lastIndexOf('/'));
}

/** Members followed, at most, from the framed value to the envelope: a transcript line's payload.result.structuredContent. */
const maxDepth = 3;

/**
 * Where the envelope is inside the framed value, as a JSON Pointer: the value itself (a bare
 * envelope), or a member of members (structuredContent, under a JSON-RPC result, under a transcript
 * line's payload); undefined when it is in no member, an envelope parsed from a text block. Found
 * by identity, through objects only, breadth first: which wrapping put it where is the unwrapper's
 * business, and a new one needs nothing here.
 */
function pointerTo(value: unknown, envelope: unknown): string | undefined {
  if (value === envelope) return '';
  let level: { node: Record<string, unknown>; pointer: string }[] = isObject(value) ? [{ node: value, pointer: '' }] : [];
  for (let depth = 1; depth <= maxDepth && level.length > 0; depth++) {
    const deeper: typeof level = [];
    for (const { node, pointer } of level) {
      for (const key of Object.keys(node)) {
        const member = node[key];
        if (!isObject(member)) continue;
        const at = childPointer(pointer, key);
        if (member === envelope) return at;
        deeper.push({ node: member, pointer: at });
      }
    }
    level = deeper;
  }
  return undefined;
}

// JSON-RPC ids by their exact value (spec section 7's pairing): a numeric id is its
// decimal value as written, so `1`, `1.0` and `1e0` are one id, while `9007199254740993` and
// `9007199254740992`, or `1e400` and `1e401`, which JSON.parse rounds to one number, are two. A
// string id is never a numeric one (`"1"` is not `1`). The value JSON.parse made serves as the key
// whenever it tells ids apart exactly; the rest are kept by their canonical decimal text.
import { canonicalNumber, skipBlank, valueAtPath, valueEnd } from '../framing/member-text.js';

/** A numeric id other than an integer of at most 15 digits, kept by its exact value: one object for every id of that value. */
export class ExactId {
  constructor(
    /** As the first id of its value was written, for messages. */
    readonly written: string,
    readonly canonical: string,
  ) {}
}

/** A JSON-RPC id as pairing keys it: a string, a number that is its exact value, or an ExactId. */
export type IdKey = string | number | ExactId;

/** A plain integer literal of at most 15 digits: its double is its exact value, and no other literal's. */
function isSmallInteger(text: string, from: number, to: number): boolean {
  if (text.charCodeAt(from) === 0x2d) from++;
  if (to - from > 15 || to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Each `"id"`, and any escape that may spell an `i` or a `d` (`\u0069`, `\u0064`). */
const idName = /"id"|\\u006[49]/g;

/** One input's ids: the ExactId of each value met, so that equal values are one key. */
export class IdKeys {
  private readonly exact = new Map<string, ExactId>();

  /**
   * The key of a numeric `id`, given the JSON text its message was parsed from: `text` from `at`
   * on, the message at `path` (members followed) there. Without a text, the number itself.
   */
  numeric(id: number, text: string | undefined, at: number, path: readonly string[], name = 'id'): number | ExactId {
    if (text === undefined) return id;
    let from = name === 'id' && path.length <= 1 ? this.onlyId(text, at) : -1;
    if (from === -1) from = valueAtPath(text, at, [...path, name]);
    if (from === -1) return id;
    const to = valueEnd(text, from);
    if (isSmallInteger(text, from, to)) return id === 0 ? 0 : id;
    return this.keyOf(text.slice(from, to), id);
  }

  /** The key of a numeric literal, `id` being JSON.parse's value of it. */
  keyOf(literal: string, id: number): number | ExactId {
    // Only a number literal is given; a canonical integer of at most 15 digits is its double's value.
    const canonical = canonicalNumber(literal) ?? literal;
    if (isSmallInteger(canonical, 0, canonical.length)) return id === 0 ? 0 : id;
    let key = this.exact.get(canonical);
    // Own copies: a slice of a line would keep the whole decoded window alive as long as the key.
    if (key === undefined) this.exact.set(canonical, (key = new ExactId([...literal].join(''), [...canonical].join(''))));
    return key;
  }

  /**
   * Where the value of the one member named `id` starts, when the text from `at` writes `"id"` only
   * once and spells no `i` or `d` with an escape: then that is the message's id, wherever the
   * message is. -1 when that cannot be told so cheaply.
   */
  private onlyId(text: string, at: number): number {
    idName.lastIndex = at;
    if (!idName.test(text)) return -1;
    const after = idName.lastIndex;
    if (text.charCodeAt(after - 1) !== 0x22 || idName.test(text)) return -1;
    let i = skipBlank(text, after);
    if (text.charCodeAt(i) !== 0x3a) return -1;
    i = skipBlank(text, i + 1);
    const c = text.charCodeAt(i);
    return c === 0x2d || (c >= 0x30 && c <= 0x39) ? i : -1;
  }
}

/** How a message names an id: as JSON writes it, except an ExactId, as the input wrote it. */
export function idText(key: IdKey | undefined, shown: string): string {
  return key instanceof ExactId ? key.written : shown;
}

// JSON Pointers (RFC 6901), the one way every stage writes them: framing locates values by them,
// checks and findings name places with them. A leaf, so that any layer may import it.

/** A member name or index as a pointer token: `~` and `/` escaped as `~0` and `~1`. */
export function pointerToken(key: string | number): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** JSON Pointer of one more step below `base`. */
export function childPointer(base: string, key: string | number): string {
  return `${base}/${pointerToken(key)}`;
}

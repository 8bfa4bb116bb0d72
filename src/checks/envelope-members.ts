// Whether a JSON object is an envelope at all (spec section 8.4): one with none of the envelope's
// members is some other JSON (a structured log line, a recorder's entry) and gets one finding that
// says so, not a schema finding per member it holds.
import { isObject, shorten } from './envelope.js';

/** The envelope's members, as memberKey() spells them. */
const envelopeKeys = new Set(['ok', 'result', 'error', 'warnings']);

/** A member name with case and `_`/`-` ignored: .NET's `Ok` and `Result` are the envelope's `ok` and `result`. */
function memberKey(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/**
 * Whether `value` is an object with none of the envelope members `ok`, `result`, `error`,
 * `warnings` (names compared as memberKey() has them; `sessionId` alone does not make one, and `{}`
 * has none). Anything else (an envelope, a misspelt one, a non-object) the schema judges.
 */
export function isMemberlessObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  for (const name in value) if (Object.hasOwn(value, name) && envelopeKeys.has(memberKey(name))) return false;
  return true;
}

/** Member names a message lists. */
const namedMembers = 5;

/** "an object with members timestamp, source, level, …: no ok, result or error, so no tool result envelope" */
export function notAnEnvelopeMessage(value: Record<string, unknown>): string {
  const names: string[] = [];
  let more = false;
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    if (names.length === namedMembers) {
      more = true;
      break;
    }
    // A name is data: quoted when it would not read as one word of the list (empty, spaces, commas).
    names.push(/^[\w$@.:/]+$/.test(name) ? shorten(name) : shorten(JSON.stringify(name)));
  }
  const what = names.length === 0 ? 'an empty object' : `an object with ${names.length === 1 ? 'member' : 'members'} ${names.join(', ')}${more ? ', …' : ''}`;
  return `${what}: no ok, result or error, so no tool result envelope`;
}

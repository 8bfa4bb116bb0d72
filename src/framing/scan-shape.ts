// Objects of a known shape made in one step. A plain object filled by member names read from the
// data is a keyed store each, which V8 does on its slow path; an object literal with the names
// written in is made from one boilerplate. The scanner builds the envelope's objects, whose members
// are few and named by the plan, by a literal per order of names met (a handful per schema).
import type { NamedMember, ObjectMaker } from './scan-plan.js';

/** Orders of names kept per plan node, at most: past it, objects are made member by member. */
const maxShapes = 64;

/**
 * The maker for the names `order` (indices into `named`, as the key packs them: 4 bits each, plus
 * one), from `cache`, made once. Undefined when the cache is full.
 */
export function objectMaker(cache: Map<number, ObjectMaker>, named: readonly NamedMember[], key: number, order: readonly number[]): ObjectMaker | undefined {
  const found = cache.get(key);
  if (found !== undefined || cache.size >= maxShapes) return found;
  // The names are the plan's own (never `__proto__`, which a literal would take for the prototype),
  // written as JSON strings, which are JavaScript string literals too.
  const members = order.map((index, k) => `${JSON.stringify(named[index]!.name)}: values[base + ${k}]`);
  const maker = new Function('values', 'base', `return { ${members.join(', ')} };`) as ObjectMaker;
  cache.set(key, maker);
  return maker;
}

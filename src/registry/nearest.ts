// Suggestions for unknown codes and categories (spec section 7): a candidate is suggested when it is
// the only one within two edits, comparing case-insensitively with `_` read as `-`.

const maxEdits = 2;

export function normalizeName(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}

// Two rows reused by every call: a suggestion is looked for against every known code, and a fresh
// pair of arrays per candidate was most of the time of a corpus of distinct unknown codes.
let rowA = new Uint32Array(64);
let rowB = new Uint32Array(64);

/**
 * Levenshtein distance, or `limit + 1` as soon as it is known to exceed `limit`. Only the band of
 * cells within `limit` of the diagonal is computed (a path through any other cell costs more than
 * the limit): a code is data, and a 100k-digit one against its `{n}` pattern took the full
 * quadratic table, minutes and gigabytes, before the band.
 */
export function editDistance(a: string, b: string, limit = maxEdits): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  if (rowA.length < b.length + 2) (rowA = new Uint32Array(b.length + 2)), (rowB = new Uint32Array(b.length + 2));
  // Row i of the table in `current`, row i - 1 in `previous`. Each row writes the cells either side
  // of its band as `over`, which is all the next row reads outside the band; row 0 likewise.
  let previous = rowA;
  let current = rowB;
  const first = Math.min(b.length, limit);
  for (let j = 0; j <= first; j++) previous[j] = j;
  previous[first + 1] = over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - limit);
    const to = Math.min(b.length, i + limit);
    current[from - 1] = from === 1 ? Math.min(i, over) : over;
    let rowMin = current[from - 1]!;
    const code = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const cost = code === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost, over);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    current[to + 1] = over;
    if (rowMin > limit) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** A candidate name with its normalized form, worked out once for many lookups. */
export interface Candidate {
  name: string;
  normalized: string;
}

export function candidates(names: Iterable<string>): Candidate[] {
  return [...new Set(names)].map((name) => ({ name, normalized: normalizeName(name) }));
}

/** Candidates by the length of their normalized form: only lengths within two of a name's can be near it. */
export function byLength(list: readonly Candidate[]): Candidate[][] {
  const buckets: Candidate[][] = [];
  for (const candidate of list) (buckets[candidate.normalized.length] ??= []).push(candidate);
  return buckets;
}

/** The one candidate within two edits of `name` in any of the sets, or undefined when none or several are. */
export function nearestCandidate(name: string, ...sets: readonly (readonly (Candidate[] | undefined)[])[]): string | undefined {
  const wanted = normalizeName(name);
  let found: string | undefined;
  for (const buckets of sets) {
    const last = Math.min(buckets.length - 1, wanted.length + maxEdits);
    for (let length = Math.max(0, wanted.length - maxEdits); length <= last; length++) {
      for (const { name: candidate, normalized } of buckets[length] ?? []) {
        if (editDistance(wanted, normalized) > maxEdits) continue;
        if (found !== undefined && found !== candidate) return undefined;
        found = candidate;
      }
    }
  }
  return found;
}

/** The one candidate within two edits of `name`, or undefined when none or several are. */
export function nearestName(name: string, names: Iterable<string>): string | undefined {
  return nearestCandidate(name, byLength(candidates(names)));
}

/** ` (did you mean "near"?)` after a name nothing knows, or `otherwise` when nothing is near. */
export function didYouMean(near: string | undefined, otherwise = ''): string {
  return near === undefined ? otherwise : ` (did you mean ${JSON.stringify(near)}?)`;
}

// Suggestions for unknown codes and categories (spec section 7): a candidate is suggested when it is
// the only one within two edits, comparing case-insensitively with `_` read as `-`.

const maxEdits = 2;

export function normalizeName(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}

/**
 * Levenshtein distance, or `limit + 1` as soon as it is known to exceed `limit`. Only the band of
 * cells within `limit` of the diagonal is computed (a path through any other cell costs more than
 * the limit): a code is data, and a 100k-digit one against its `{n}` pattern took the full
 * quadratic table, minutes and gigabytes, before the band.
 */
export function editDistance(a: string, b: string, limit = maxEdits): number {
  const over = limit + 1;
  if (Math.abs(a.length - b.length) > limit) return over;
  // Row i of the table in `current`, row i - 1 in `previous`; a cell outside the band reads as `over`.
  let previous = new Uint32Array(b.length + 2).fill(over);
  let current = new Uint32Array(b.length + 2).fill(over);
  for (let j = 0; j <= Math.min(b.length, limit); j++) previous[j] = j;
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
    // The next row reads this cell as its upper right neighbour: outside this row's band.
    current[to + 1] = over;
    if (rowMin > limit) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/** The one candidate within two edits of `name`, or undefined when none or several are. */
export function nearestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = normalizeName(name);
  let found: string | undefined;
  for (const candidate of new Set(candidates)) {
    if (editDistance(wanted, normalizeName(candidate)) > maxEdits) continue;
    if (found !== undefined) return undefined;
    found = candidate;
  }
  return found;
}

// Suggestions for unknown codes and categories (spec section 7): a candidate is suggested when it is
// the only one within two edits, comparing case-insensitively with `_` read as `-`.

const maxEdits = 2;

export function normalizeName(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}

/** Levenshtein distance, or `limit + 1` as soon as it is known to exceed `limit`. */
export function editDistance(a: string, b: string, limit = maxEdits): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
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

// Suggestions for unknown codes and categories (spec section 7): a candidate is suggested when it is
// the only one within two edits, comparing case-insensitively with `_` read as `-`.

export const maxEdits = 2;

export function normalizeName(name: string): string {
  return name.toLowerCase().replaceAll('_', '-');
}

// Two rows reused by every call: a name is compared with every name of a list, and a fresh pair of
// arrays per comparison would be most of the time of a corpus of distinct unknown codes.
let rowA = new Uint32Array(64);
let rowB = new Uint32Array(64);

/**
 * Levenshtein distance, or `limit + 1` as soon as it is known to exceed `limit`. Only the band of
 * cells within `limit` of the diagonal is computed (a path through any other cell costs more than
 * the limit): a code is data, and a 100k-digit one against its `{n}` pattern would otherwise fill
 * the full quadratic table.
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

/** Where a trie's name goes on from a node; a template's `{n}` is the edge `placeholderEdge`. */
interface TrieNode {
  children: Map<number, TrieNode> | undefined;
  /** The names whose normalized form ends here (templates, in a trie of templates). */
  names: string[] | undefined;
}

const placeholderEdge = -1;
const over = maxEdits + 1;
const bandWidth = 2 * maxEdits + 1;

/**
 * One row of the edit-distance table, cut to its band and packed two bits a cell (every value is
 * 0 to `over`): cell `k` is the distance between the trie prefix of length `depth` and `wanted`'s
 * prefix of length `depth - maxEdits + k` (`over` outside the text). -1 when every cell is over the
 * limit, so that nothing below this node can be near. A number, not an array: a search steps into
 * thousands of nodes, and a typed array per step would be most of its time.
 */
function step(previous: number, depth: number, unit: number, wanted: string): number {
  let band = 0;
  let left = over;
  let min = over;
  for (let k = 0; k < bandWidth; k++) {
    const j = depth - maxEdits + k;
    let value = over;
    if (j === 0) value = Math.min(depth, over);
    else if (j > 0 && j <= wanted.length) {
      const substitute = ((previous >> (2 * k)) & 3) + (wanted.charCodeAt(j - 1) === unit ? 0 : 1);
      const drop = k + 1 < bandWidth ? ((previous >> (2 * k + 2)) & 3) + 1 : over;
      value = Math.min(substitute, drop, left + 1, over);
    }
    band |= value << (2 * k);
    left = value;
    if (value < min) min = value;
  }
  return min > maxEdits ? -1 : band;
}

/** Cell `k` of a packed band. */
function cell(band: number, k: number): number {
  return (band >> (2 * k)) & 3;
}

/**
 * Candidate names in a trie of their normalized forms, searched with the edit-distance table's band
 * carried down it: only prefixes within two edits of the wanted name's are visited. A `--codes`
 * registry may list tens of thousands of codes, and comparing each unknown code with each of them
 * costs time in the product of the two counts. Templates keep
 * `{n}` as an edge that reads the unknown code's number, so they need no instances per code either.
 */
export class CandidateTrie {
  private readonly root: TrieNode = { children: undefined, names: undefined };
  /** Nodes the last search stepped into: its work, which tests hold to the neighbourhood's size. */
  visited = 0;

  /** `placeholder`: the text in a name that stands for a whole number (templates only). */
  constructor(names: Iterable<string>, placeholder?: string) {
    for (const name of new Set(names)) {
      // Split before normalizing: only the literal placeholder is one (`{N}` is no `{n}`).
      const parts = placeholder === undefined ? [name] : name.split(placeholder);
      let node = this.root;
      parts.forEach((part, i) => {
        if (i > 0) node = this.child(node, placeholderEdge);
        const normalized = normalizeName(part);
        for (let c = 0; c < normalized.length; c++) node = this.child(node, normalized.charCodeAt(c));
      });
      (node.names ??= []).push(name);
    }
  }

  private child(node: TrieNode, edge: number): TrieNode {
    const children = (node.children ??= new Map());
    let child = children.get(edge);
    if (!child) children.set(edge, (child = { children: undefined, names: undefined }));
    return child;
  }

  /**
   * Calls `accept` with each name within two edits of `wanted` (normalized already), a placeholder
   * read as `number`, until it returns false. An explicit stack: a `--codes` file may hold a code as
   * long as a line.
   */
  search(wanted: string, number: string, accept: (name: string) => boolean): void {
    this.visited = 0;
    let first = 0;
    for (let k = 0; k < bandWidth; k++) first |= (k < maxEdits || k - maxEdits > wanted.length ? over : k - maxEdits) << (2 * k);
    const nodes: TrieNode[] = [this.root];
    const depths: number[] = [0];
    const bands: number[] = [first];
    while (nodes.length > 0) {
      const node = nodes.pop()!;
      const depth = depths.pop()!;
      const band = bands.pop()!;
      this.visited++;
      const k = wanted.length - depth + maxEdits;
      if (node.names && k >= 0 && k < bandWidth && cell(band, k) <= maxEdits) {
        for (const name of node.names) if (!accept(name)) return;
      }
      for (const [edge, child] of node.children ?? []) {
        let next = band;
        let nextDepth = depth;
        if (edge === placeholderEdge) {
          for (let c = 0; next !== -1 && c < number.length; c++) next = step(next, ++nextDepth, number.charCodeAt(c), wanted);
        } else {
          next = step(band, ++nextDepth, edge, wanted);
        }
        if (next === -1) continue;
        nodes.push(child);
        depths.push(nextDepth);
        bands.push(next);
      }
    }
  }
}

/**
 * The one name within two edits of `name`, or undefined when none or several are. For the short
 * lists made per call (an object's allowed members, option, format and rule names), compared one by
 * one: editDistance gives up at once on a length two off. A registry's codes, listed once and
 * searched for many unknown codes, are a CandidateTrie.
 */
export function nearestName(name: string, names: Iterable<string>): string | undefined {
  const wanted = normalizeName(name);
  let found: string | undefined;
  for (const candidate of new Set(names)) {
    if (editDistance(wanted, normalizeName(candidate)) > maxEdits) continue;
    if (found !== undefined && found !== candidate) return undefined;
    found = candidate;
  }
  return found;
}

/** ` (did you mean "near"?)` after a name nothing knows, or `otherwise` when nothing is near. */
export function didYouMean(near: string | undefined, otherwise = ''): string {
  return near === undefined ? otherwise : ` (did you mean ${JSON.stringify(near)}?)`;
}

// The bench scripts' tables: a header, a rule of dashes, then the rows, columns two spaces apart,
// the columns named in `right` aligned right.
export function table(headers, body, right = []) {
  const widths = headers.map((h, i) => Math.max(h.length, ...body.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (right.includes(i) ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n') + '\n';
}

// Sources inside a zip are named `<zip>!/<entry>` (spec section 8.2): the formats that point at
// files (SARIF, GitHub) name the zip as the file and the entry inside it.

/** The zip and the entry of a source read out of a zip; undefined for any other source. */
export function zipEntrySource(source: string): { zip: string; entry: string } | undefined {
  const match = /^(.*?\.zip)!\/(.+)$/is.exec(source);
  return match ? { zip: match[1]!, entry: match[2]! } : undefined;
}

// Report data in HTML: every value from the records (codes, tool names, file names, messages,
// record text) passes through here before it reaches the page.
import { printable } from '../common.js';

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text for an element's content or a quoted attribute's value: `&`, `<`, `>` and both quotes as
 * character references, so that no value opens a tag, ends an attribute or reads as a reference.
 * Control and invisible characters are shown as escapes first (printable()).
 */
export function html(text: string | number): string {
  return printable(String(text)).replace(/[&<>"']/g, (c) => entities[c]!);
}

/** As html(), for text that printable() has been applied to already (offsets into it are kept). */
export function htmlShown(text: string): string {
  return text.replace(/[&<>"']/g, (c) => entities[c]!);
}

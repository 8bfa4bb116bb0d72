// An MCP text block's string scanned as a bare line is (scan.ts), with the envelope plan: the
// envelope inside a wrapping is built as one on a line of its own, and its duplicate members are
// seen on the way. What the scanner does not accept is left to the caller's JSON.parse, whose
// verdict and words the scanner's acceptance agrees with.
import { scan, type ScanPlan } from './scan.js';

export interface ScannedText {
  /** What `plan` builds of the text's value. */
  value: unknown;
  /** No member name is written twice where the plan looks for them (the envelope, its error, a warning). */
  noDuplicates: boolean;
}

/** Buffer's own encoder, which takes no encoding name to look up (Node's, undocumented but stable, as scan.ts's decoders). */
interface Writing extends Buffer {
  utf8Write(text: string, offset: number): number;
}

/** Texts are encoded into this, grown to the longest met up to `keptBytes`; a longer one gets a buffer of its own. */
let scratch = Buffer.allocUnsafe(16 * 1024) as Writing;
const keptBytes = 4 * 1024 * 1024;

/** Parse messages are never asked for: a text the scanner refuses goes to JSON.parse. */
const options = { quote: false };

interface WellFormed {
  isWellFormed(): boolean;
}

/**
 * `text`'s value as `plan` builds it; undefined when it is to be parsed by JSON.parse instead: the
 * scanner refuses it (its words are JSON.parse's), or it holds a lone surrogate, which UTF-8 cannot
 * carry to the scanner.
 */
export function scanText(text: string, plan: ScanPlan): ScannedText | undefined {
  // At most three bytes a UTF-16 unit.
  const most = 3 * text.length;
  let bytes = scratch;
  if (most > bytes.length) bytes = (most > keptBytes ? Buffer.allocUnsafe(most) : (scratch = Buffer.allocUnsafe(most) as Writing)) as Writing;
  const length = bytes.utf8Write(text, 0);
  // As many bytes as units: every unit is ASCII. Else a lone surrogate would be written as U+FFFD.
  if (length !== text.length && !(text as unknown as WellFormed).isWellFormed()) return undefined;
  // An ASCII text is its own bytes' decoding: the strings built are slices of it, not decoded anew.
  const scanned = length === text.length ? scan(bytes, 0, length, plan, options, text, 0) : scan(bytes, 0, length, plan, options);
  if (!scanned.ok) return undefined;
  return { value: scanned.value, noDuplicates: scanned.duplicates.length === 0 };
}

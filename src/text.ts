// Text helpers shared by the checks, which quote record data in messages, the decoding of inputs,
// and the formatters.

/** A UTF-16 unit of a surrogate pair standing alone: half a character, which no UTF-8 holds. */
export const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const loneSurrogates = new RegExp(loneSurrogate.source, 'g');

/** `text` with each lone surrogate as U+FFFD, as UTF-8 writers and JSON readers take it. */
export function wellFormed(text: string): string {
  return loneSurrogate.test(text) ? text.replace(loneSurrogates, '\ufffd') : text;
}

/**
 * The first `length` UTF-16 units of `text`, one fewer when the cut would part a surrogate pair:
 * half an emoji is no character, and JSON, SARIF and every strict reader of them refuse it.
 */
export function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

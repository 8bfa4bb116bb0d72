// Text helpers shared by the checks, which quote record data in messages, and the formatters.

/**
 * The first `length` UTF-16 units of `text`, one fewer when the cut would part a surrogate pair:
 * half an emoji is no character, and JSON, SARIF and every strict reader of them refuse it.
 */
export function cutText(text: string, length: number): string {
  if (text.length <= length) return text;
  const last = text.charCodeAt(length - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? length - 1 : length);
}

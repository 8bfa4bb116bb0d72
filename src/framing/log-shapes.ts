// Known log shapes (spec section 8.8) as far as framing reads them: the server a Claude Desktop line
// speaks for. Its logs put the server's name and the log level in brackets before "Message from
// client:" or "Message from server:", in either order (`[info] [odoo]` in the old shared mcp.log,
// `[skilljack] [info]` in the per-server logs). Several servers share mcp.log and each numbers its
// requests from 0, so pairing keys on that name, as it does on a transcript's sessionId.

const levels = new Set(['info', 'warn', 'warning', 'error', 'debug', 'trace']);

const bracketed = /\[([^[\]]*)\]/g;

/**
 * The first bracketed token before `Message from` in a log line's prefix that is not a log level;
 * undefined when the prefix has no `Message from` or no such token.
 */
export function serverTag(prefix: string): string | undefined {
  const message = prefix.indexOf('Message from');
  if (message === -1) return undefined;
  const before = prefix.slice(0, message);
  for (const [, token] of before.matchAll(bracketed)) {
    if (!levels.has(token!.trim().toLowerCase())) return token;
  }
  return undefined;
}

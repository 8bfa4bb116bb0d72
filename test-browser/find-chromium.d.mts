// Types of find-chromium.mjs, a script node runs before any TypeScript is built.
export const installLine: string;
export const missing: string;
export function chromiumPath(): string | undefined;

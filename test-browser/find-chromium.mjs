#!/usr/bin/env node
// Finds the Chromium the browser tests drive (playwright-core downloads none): $CHROMIUM_PATH, else
// the first of Debian's and others' names on the PATH. Run alone (`npm run test:browser` does, first),
// it prints the path, or says how to install Chromium and exits 1, before any test is counted.
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export const installLine = 'apt-get update && apt-get install -y chromium';

/** @returns {string | undefined} */
export function chromiumPath() {
  const given = process.env.CHROMIUM_PATH;
  if (given) return given;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of names) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

export const missing = `the browser tests need Chromium, and none was found on the PATH (${names.join(', ')}) nor in CHROMIUM_PATH: install it with \`${installLine}\` (as root, on Debian or Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = chromiumPath();
  if (path === undefined) {
    process.stderr.write(`test:browser: ${missing}\n`);
    process.exit(1);
  }
  process.stdout.write(`test:browser: Chromium at ${path}\n`);
}

// The browser tests (`npm run test:browser`): the HTML report opened in headless Chromium. Kept out
// of `npm test` (vitest.config.ts includes test/ only), which needs no browser.
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: resolve(import.meta.dirname, '..'),
    include: ['test-browser/**/*.test.ts'],
    setupFiles: ['test/helpers/setup.ts'],
    globalSetup: ['test-browser/global-setup.ts'],
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest-browser.json' },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

// Vitest's global setup for the browser tests: hands the tests the Chromium to launch, and refuses
// to start without one (find-chromium.mjs says how to install it).
import type { TestProject } from 'vitest/node';
import { chromiumPath, missing } from './find-chromium.mjs';

export default function setup({ provide }: TestProject): void {
  const path = chromiumPath();
  if (path === undefined) throw new Error(missing);
  provide('chromium', path);
}

declare module 'vitest' {
  export interface ProvidedContext {
    chromium: string;
  }
}

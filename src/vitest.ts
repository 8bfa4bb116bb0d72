// `import 'mcec-result/vitest'` registers the matchers of `mcec-result/matchers` (src/matchers.ts),
// `expect(value).toBeMcecResult()`, with Vitest's `expect`, and declares their types to Vitest.
// vitest is an optional peer dependency: only projects that run vitest import this entry point.
// The reference keeps vitest in dist/vitest.d.ts, which tsc's emit would leave without any import
// of it (`expect` is a value): without one, a TypeScript project's `declare module 'vitest'` below
// would merge with nothing, and `toBeMcecResult` would not type-check.
/// <reference types="vitest" preserve="true" />
import { expect } from 'vitest';
import { mcecMatchers, type McecResultOptions } from './matchers.js';

export { mcecFindings, mcecMatchers, type McecResultOptions } from './matchers.js';

expect.extend(mcecMatchers);

declare module 'vitest' {
  // The type parameter must repeat vitest's own declaration (`T = any`) for the interfaces to merge.
  interface Assertion<T = any> {
    /** Passes when the value (a bare envelope or an MCP CallToolResult) has no error-severity finding. */
    toBeMcecResult(options?: McecResultOptions): void;
  }
  interface AsymmetricMatchersContaining {
    toBeMcecResult(options?: McecResultOptions): unknown;
  }
}

// `import 'mcec-result/vitest'` registers `expect(value).toBeMcecResult()` for other projects' tests;
// `import { mcecMatchers } from 'mcec-result/vitest'` gives the matcher for `expect.extend` by hand.
// The value is a bare envelope or an MCP CallToolResult (spec section 3, wrappings 1 and 2).
// vitest is an optional peer dependency: only projects that run vitest import this entry point.
// The reference keeps vitest in dist/vitest.d.ts, which tsc's emit would leave without any import
// of it (`expect` is a value): without one, a TypeScript project's `declare module 'vitest'` below
// would merge with nothing, and `toBeMcecResult` would not type-check.
/// <reference types="vitest" preserve="true" />
import { expect } from 'vitest';
import { ruleCatalog } from './checks/catalog.js';
import { jsonFormOf } from './checks/check-envelope.js';
import { UsageError } from './errors.js';
import { messageWithSuggestion, widest } from './formatters/common.js';
import { aFlag, expecting, got, optionsProblem } from './option-checks.js';
import { checkEnvelope as checkEnvelopeOf } from './index.js';
import { isSchemaVersionChoice, schemaVersionChoices } from './checks/schema-versions.js';
import type { RecordFinding } from './types.js';
import { isCallToolResult, unwrapCallToolResult } from './unwrap/mcp.js';

export interface McecResultOptions {
  /** Warnings fail the assertion too (default: only error-severity findings do). */
  strict?: boolean;
  /** The bundled schema version to check against: `2026-06`, `2026-07` or `latest` (the default). */
  schemaVersion?: string;
}

/** Every finding for `value`: the MCP wrapper's own (isError, structuredContent) and the envelope's. */
export function mcecFindings(given: unknown, schemaVersion?: string): RecordFinding[] {
  const checkEnvelope = (envelope: unknown) => checkEnvelopeOf(envelope, schemaVersion === undefined ? undefined : { schemaVersion });
  if (!isCallToolResult(given)) return checkEnvelope(given);
  // checkEnvelope holds a bare value to JSON; a wrapper is held here, before unwrapping, since
  // comparing a structuredContent that refers to itself would never end either.
  const value = jsonFormOf(given);
  if (!isCallToolResult(value)) return checkEnvelope(value);
  const unwrapped = unwrapCallToolResult(value);
  // The wrapper's findings carry no severity; with no --rule settings it is the rule's default.
  const findings: RecordFinding[] = unwrapped.findings.map(({ rule, ...report }) => ({ rule, severity: ruleCatalog[rule].defaultSeverity, ...report }));
  if (unwrapped.found) findings.push(...checkEnvelope(unwrapped.envelope));
  return findings;
}

function describeFindings(findings: readonly RecordFinding[]): string {
  const pointers = findings.map((finding) => (finding.pointer ? finding.pointer : '(root)'));
  const width = widest(pointers);
  return findings.map((finding, i) => `  ${pointers[i]!.padEnd(width)}  ${finding.severity.padEnd(7)}  ${messageWithSuggestion(finding)} (${finding.rule})`).join('\n');
}

function toBeMcecResult(received: unknown, given: McecResultOptions = {}) {
  // null is no options: `options.strict` below must not be a TypeError of the matcher's own.
  const options = given ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new UsageError(`toBeMcecResult: expected an options object ({ strict, schemaVersion }), got ${got(options)}`);
  // A misspelt option (`{ strcit: true }`) is refused, not taken as strict off.
  const aVersion = expecting(`a bundled schema version: ${schemaVersionChoices.join(', ')}`, isSchemaVersionChoice);
  const problem = optionsProblem(options, { strict: aFlag, schemaVersion: aVersion }, () => undefined, ' (the options are strict and schemaVersion)');
  if (problem !== undefined) throw new UsageError(`toBeMcecResult: ${problem}`);
  const findings = mcecFindings(received, options.schemaVersion);
  const failing = findings.filter((finding) => options.strict === true || finding.severity === 'error');
  const pass = failing.length === 0;
  const what = options.strict === true ? 'a conformant MCEC result (strict: warnings fail too)' : 'a conformant MCEC result';
  const message = pass
    ? () => `expected value not to be ${what}, but it has ${findings.length > 0 ? `only warnings:\n${describeFindings(findings)}` : 'no finding'}`
    : () => `expected value to be ${what}, but:\n${describeFindings(findings)}`;
  return { pass, message, actual: received };
}

export const mcecMatchers = { toBeMcecResult };

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

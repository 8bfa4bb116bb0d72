// The library: what `import … from 'mcec-result'` gives.
import { checkEnvelopeWith as checkJsonEnvelope, jsonFormOf, type CheckContext } from './checks/check-envelope.js';
import { createCheckContext, type CheckOptions } from './run.js';
import { UsageError } from './errors.js';
import { isCheckContext } from './context.js';
import { got } from './option-checks.js';
import type { RecordFinding } from './types.js';

export { check, createCheckContext, type CheckOptions, type OwnFile, type RunProgress } from './run.js';
export type { CheckContext } from './checks/check-envelope.js';
export { ruleCatalog, ruleIds } from './checks/catalog.js';
export { formatReport, formatters, formatNames, type FormatName, type Formatter, type FormatOptions } from './formatters/index.js';
export { toJsonReport, type JsonReport, type JsonFinding } from './formatters/json.js';
export type * from './types.js';
// What check(), createCheckContext() and formatReport() throw for a caller's mistake: README names it, so `instanceof` must work.
export { UsageError } from './errors.js';

/** The contexts of option-less calls, and of calls that name only a schema version, made once each. */
const versionContexts = new Map<string | undefined, CheckContext>();

/** Checks one value as a bare envelope with a context made once by createCheckContext (for many values). */
export function checkEnvelopeWith(context: CheckContext, value: unknown): readonly RecordFinding[] {
  // A context not made by createCheckContext() is refused here, with a message, not met deep inside.
  if (!isCheckContext(context)) throw new UsageError(`checkEnvelopeWith(): the first argument is a context made by createCheckContext(), got ${got(context)}`);
  return checkJsonEnvelope(context, jsonFormOf(value));
}

/** Options of a run over inputs: checkEnvelope() refuses them rather than accept them to do nothing. */
const runOptions = ['input', 'unwrap', 'stdinFilename', 'maxLineBytes', 'maxZipEntryBytes', 'extract', 'fingerprints', 'recordText', 'shard', 'stdin', 'signal', 'jobs', 'findingsInMemory', 'onProgress', 'ownFiles'] as const satisfies readonly (keyof CheckOptions)[];

/**
 * Checks one value as a bare envelope: the schema and every contract rule. With no options the
 * bundled schema and registry are compiled once and reused across calls.
 */
export function checkEnvelope(value: unknown, options?: CheckOptions): RecordFinding[] {
  const given = options === undefined || options === null || typeof options !== 'object' ? [] : runOptions.filter((key) => options[key] !== undefined);
  if (given.length > 0) throw new UsageError(`checkEnvelope(): ${given.join(', ')} apply to a run over inputs (check()), not to one value: schema, schemaVersion, codes, strictCodes, rules and redact do`);
  const versionOnly = options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).every((key) => key === 'schemaVersion') && typeof (options.schemaVersion ?? '') === 'string');
  const context = versionOnly ? contextOfVersion(options?.schemaVersion) : createCheckContext(options);
  // A copy: the checker shares one empty array between records, and callers may append to theirs.
  return [...checkEnvelopeWith(context, value)];
}

function contextOfVersion(version: string | undefined): CheckContext {
  let context = versionContexts.get(version);
  if (context === undefined) {
    context = createCheckContext(version === undefined ? {} : { schemaVersion: version });
    versionContexts.set(version, context);
  }
  return context;
}

// `check --print-config`: the settings a run would use, once the config file and the command line
// are merged, as JSON. It shows the CheckOptions that check() would be given and the CLI's own
// report settings, each key named as the config file names it; what the run decides itself (the
// threads for `jobs`, colour for a terminal) is null. Nothing is read but the config file.
import { resolveSchemaVersion } from '../checks/schema-versions.js';
import { resolveSeverities } from '../checks/severity.js';
import { defaultMemoryBudget } from '../findings/store.js';
import { defaultMaxLineBytes } from '../framing/ndjson.js';
import { defaultMaxZipEntryBytes } from '../sources/zip.js';
import type { CheckOptions } from '../context.js';
import type { CheckFlags, FormatTarget } from './cli-options.js';

export function printedConfig(configPath: string | undefined, options: CheckOptions, flags: CheckFlags, targets: readonly FormatTarget[]): string {
  const settings = {
    config: configPath ?? null,
    schema: options.schema ?? null,
    // One setting with `schema` (spec section 8.3): the bundled version only when no schema file is given.
    schemaVersion: options.schema === undefined ? resolveSchemaVersion(options.schemaVersion).name : null,
    codes: options.codes ?? [],
    strictCodes: options.strictCodes ?? false,
    // Every rule at the severity it runs at: its default, --strict-codes, then the config's and --rule's settings.
    rules: resolveSeverities(options),
    format: targets.map((target) => ({ format: target.format, file: target.file ?? flags.output ?? null })),
    input: options.input ?? 'auto',
    unwrap: options.unwrap ?? 'auto',
    extract: options.extract ?? false,
    redact: options.redact ?? false,
    stdinFilename: options.stdinFilename ?? null,
    jobs: options.jobs ?? null,
    maxLineBytes: options.maxLineBytes ?? defaultMaxLineBytes,
    maxZipEntryBytes: options.maxZipEntryBytes ?? defaultMaxZipEntryBytes,
    findingsInMemory: options.findingsInMemory ?? defaultMemoryBudget,
    shard: options.shard === undefined ? null : `${options.shard.index}/${options.shard.count}`,
    maxListed: flags.maxListed,
    maxWarnings: flags.maxWarnings ?? null,
    quiet: flags.quiet ?? false,
    exitZero: flags.exitZero ?? false,
    color: flags.color ?? null,
    progress: flags.progress ?? true,
    baseline: flags.baseline ?? null,
    writeBaseline: flags.writeBaseline ?? null,
    follow: flags.follow ?? false,
    fromStart: flags.fromStart ?? false,
  };
  return `${JSON.stringify(settings, null, 2)}\n`;
}

// The envelope schemas the package bundles, by version name (spec section 8.3). A released name
// never changes its meaning: a later MCEC schema comes as a new name, added at the end of the list.
// The categories each version adds are read from the schemas themselves (schema-load.ts), never
// kept here by hand.
import { UsageError } from '../errors.js';

export interface BundledSchemaVersion {
  /** The name `--schema-version` takes. */
  name: string;
  /** The schema file, relative to the package root: a byte-for-byte copy of the one MCEC published. */
  file: string;
}

/** Oldest first: the last is `latest`. */
export const bundledSchemaVersions: readonly BundledSchemaVersion[] = [
  { name: '2026-06', file: 'data/agent-tool-result.schema.json' },
  { name: '2026-07', file: 'data/agent-tool-result.schema.2026-07.json' },
];

export const latestSchemaVersion = bundledSchemaVersions.at(-1)!.name;

/** The version a report or baseline that records none was checked against. */
export const unversionedSchemaVersion = '2026-06';

/** Every name `--schema-version` accepts: the versions, then `latest`. */
export const schemaVersionChoices: readonly string[] = [...bundledSchemaVersions.map((version) => version.name), 'latest'];

const choicesText = `${schemaVersionChoices.slice(0, -1).join(', ')} or ${schemaVersionChoices.at(-1)}`;

/** `latest` (or nothing) as the newest bundled version; an unknown name is a usage error naming the known ones. */
export function resolveSchemaVersion(name: string | undefined, where = '--schema-version'): BundledSchemaVersion {
  const wanted = name === undefined || name === 'latest' ? latestSchemaVersion : name;
  const found = bundledSchemaVersions.find((version) => version.name === wanted);
  if (!found) throw new UsageError(`${where}: unknown schema version ${JSON.stringify(name)}: choose ${choicesText} (latest is the newest bundled, ${latestSchemaVersion})`);
  return found;
}

/** Whether `name` is a name `--schema-version` accepts. */
export const isSchemaVersionChoice = (name: unknown): name is string => typeof name === 'string' && schemaVersionChoices.includes(name);

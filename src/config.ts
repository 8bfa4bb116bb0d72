// The config file (spec section 7): `mcec-result.config.json`, or a "mcec-result" key in
// package.json, found from the working directory upward; `--config FILE` names one, `--no-config`
// turns the search off. Keys are the long option names in camelCase; paths are relative to the file.
// It is validated by data/config.schema.json, so a mistake names the file and the key. The library
// reads it too: checkEnvelope() when given `config`, the matchers (src/matchers.ts) by default.
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { readJsonAsset } from './assets.js';
import { ruleIds, unknownRule } from './checks/catalog.js';
import { parseByteSize, parseCount, refuseTwoSchemas } from './option-values.js';
import { schemaVersionChoices } from './checks/schema-versions.js';
import { maxJobs, optionChecks, type CheckOptions } from './context.js';
import { expecting } from './option-checks.js';
import { UsageError } from './errors.js';
import { ownSchemaValidator } from './lazy.js';
import { describeFileError, readJsonFile } from './load-json.js';
import { maxLineBytesLimit } from './framing/ndjson.js';
import { didYouMean, nearestName } from './registry/nearest.js';
import type { RuleId, RuleSetting } from './types.js';

export const configFileName = 'mcec-result.config.json';
const packageKey = 'mcec-result';

/** Settings whose value is the same in a config file as on the command line (after parsing). */
export interface PlainSettings {
  output?: string;
  schema?: string;
  /** A bundled schema version, or `latest`; one setting with `schema`. */
  schemaVersion?: string;
  strictCodes?: boolean;
  extract?: boolean;
  stdinFilename?: string;
  maxLineBytes?: number;
  /** Spec section 8.2: a zip's input entry that inflates past this is refused. */
  maxZipEntryBytes?: number;
  maxWarnings?: number;
  jobs?: number;
  findingsInMemory?: number;
  /** false is --no-progress. */
  progress?: boolean;
  quiet?: boolean;
  exitZero?: boolean;
  color?: boolean;
  redact?: boolean;
  baseline?: string;
}

export interface ConfigSettings extends PlainSettings {
  format?: string | string[];
  codes?: string | string[];
  rules?: Partial<Record<RuleId, RuleSetting>>;
  input?: 'auto' | 'json' | 'ndjson';
  unwrap?: 'auto' | 'none';
  maxListed?: number;
}

export interface LoadedConfig {
  path: string;
  settings: ConfigSettings;
  /** Where the settings are in the file: `/mcec-result` in a package.json, else the root (''). */
  pointer: string;
}

/** As the file may write it: `maxLineBytes` as --max-line-bytes takes it too ("64M"). */
type WrittenSettings = Omit<ConfigSettings, 'maxLineBytes'> & { maxLineBytes?: number | string };

/**
 * Options that belong to one run, not to a config every run shares: a config's `shard` would give
 * every CI job the same part, its `writeBaseline` would make every run pass, and a config cannot
 * choose the config. Refused by name, so that the message says where they go.
 */
const commandLineOnly: Record<string, string> = {
  shard: '--shard i/n picks one CI job\'s part of the inputs: give it on that job\'s command line',
  writeBaseline: '--write-baseline FILE records a baseline and passes the run: give it on the command line of the run that records one',
  config: '--config FILE chooses the config file: give it on the command line',
  noConfig: '--no-config turns the config file off: give it on the command line',
};

let validateConfig: ValidateFunction | undefined;

/** data/config.schema.json with the rule ids filled in: from the catalog, never from a second hand-kept list. */
export function configSchema(): object {
  const schema = readJsonAsset('data/config.schema.json') as {
    properties: { rules: { propertyNames: { enum: string[] } }; schemaVersion: { enum: string[] }; jobs: { maximum: number }; maxLineBytes: { oneOf: [{ maximum: number }, object] } };
  };
  schema.properties.rules.propertyNames.enum = [...ruleIds];
  schema.properties.schemaVersion.enum = [...schemaVersionChoices];
  // The limits the options have: --max-line-bytes's is Node's longest string, which its version decides.
  schema.properties.jobs.maximum = maxJobs;
  schema.properties.maxLineBytes.oneOf[0].maximum = maxLineBytesLimit;
  return schema;
}

function validator() {
  return (validateConfig ??= ownSchemaValidator('config', configSchema()));
}

/** A config key is the long option in camelCase: `strict-codes` or `rule` is a near miss, said so. */
function keyHint(key: string): string {
  const keys = Object.keys((configSchema() as { properties: object }).properties).filter((name) => name !== '$schema');
  const camel = key.replace(/-+([a-z])/g, (_, letter: string) => letter.toUpperCase());
  const near = keys.includes(camel) ? camel : nearestName(key, keys);
  return didYouMean(near, ` (keys: ${keys.join(', ')})`);
}

/** The message the option's own parser gives for a value out of its range, said of the config's key. */
function outOfRange(key: string | undefined, at: string, value: unknown): string | undefined {
  const limits: Record<string, () => unknown> = {
    maxLineBytes: () => parseByteSize(at, String(value), maxLineBytesLimit),
    jobs: () => parseCount(at, String(value), { min: 1, max: maxJobs }),
    findingsInMemory: () => parseCount(at, String(value), { min: 1 }),
    maxListed: () => parseCount(at, String(value)),
    maxWarnings: () => parseCount(at, String(value)),
  };
  try {
    if (key !== undefined && Object.hasOwn(limits, key)) limits[key]!();
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  return undefined;
}

function describe(error: ErrorObject, prefix: string, data: unknown): string {
  const at = `${prefix}${error.instancePath}`;
  if (error.keyword === 'additionalProperties') {
    const key = String(error.params['additionalProperty']);
    const camel = key.replace(/-+([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (error.instancePath === '' && Object.hasOwn(commandLineOnly, camel)) return `${JSON.stringify(key)}${prefix ? ` in ${prefix}` : ''} is command-line only: ${commandLineOnly[camel]}`;
    return `unknown key ${JSON.stringify(key)}${at ? ` in ${at}` : ''}${error.instancePath === '' ? keyHint(key) : ''}`;
  }
  // oneOf's first branch alone would say "must be an integer", though "64M" is taken too.
  if (error.keyword === 'type' && error.instancePath === '/maxLineBytes') {
    const value = valueAt(data, error.instancePath);
    return `${at} must be a number of bytes or a size such as "64M" (got ${typeof value === 'number' ? value : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value})`;
  }
  if (error.keyword === 'minimum' || error.keyword === 'maximum') {
    const message = outOfRange(error.instancePath.split('/')[1], at, valueAt(data, error.instancePath));
    if (message !== undefined) return message;
  }
  if (error.keyword === 'propertyNames') return `${at || 'rules'}: unknown rule ${unknownRule(String(error.params['propertyName']))}`;
  if (error.keyword === 'enum') return `${at} must be one of: ${(error.params['allowedValues'] as unknown[]).join(', ')}`;
  // An empty path resolves to the config file's folder: "cannot write /project: is a directory".
  if (error.keyword === 'minLength') {
    const key = error.instancePath.split('/')[1];
    return `${at} is empty: ${key === 'format' ? 'give a format, as --format takes it' : key === 'stdinFilename' ? 'give a name' : 'give a file name'}`;
  }
  // Only a path read as settings has a `not` (data/config.schema.json, readPath): "-" there found a
  // file named "-" beside the config, where the command line refuses it.
  if (error.keyword === 'not') return `${at}: - would be standard input, which holds the records: name a file`;
  return `${at || 'the config'} ${describeFileError(error, configSchema(), data)}`;
}

/** The value at a top-level pointer (`/jobs`) of the settings. */
function valueAt(data: unknown, pointer: string): unknown {
  const key = pointer.split('/')[1];
  return key !== undefined && typeof data === 'object' && data !== null ? (data as Record<string, unknown>)[key] : undefined;
}

function validated(data: unknown, path: string, prefix: string): ConfigSettings {
  const validate = validator();
  if (validate(data)) {
    const settings = data as WrittenSettings;
    try {
      refuseTwoSchemas(settings, prefix);
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`config ${path}: ${error.message}`);
      throw error;
    }
    if (typeof settings.maxLineBytes !== 'string') return settings as ConfigSettings;
    // "64M", read as --max-line-bytes reads it, with its words for a mistake, said of the key.
    try {
      return { ...settings, maxLineBytes: parseByteSize(`${prefix}/maxLineBytes`, settings.maxLineBytes, maxLineBytesLimit) };
    } catch (error) {
      if (error instanceof UsageError) throw new UsageError(`config ${path}: ${error.message}`);
      throw error;
    }
  }
  const errors = validate.errors ?? [];
  // propertyNames reports the bad name first; its own message beats ajv's generic one. Otherwise the
  // deepest error: for `"codes": [""]` the empty item, not oneOf's first branch ("must be string").
  const first = errors.find((e) => e.keyword === 'propertyNames') ?? errors.reduce<ErrorObject | undefined>((deepest, e) => (deepest && deepest.instancePath.length >= e.instancePath.length ? deepest : e), undefined);
  throw new UsageError(`config ${path}: ${first ? describe(first, prefix, data) : 'invalid'}`);
}

/** Makes the file paths of a config relative to the working directory's view, not the config's. */
function resolvePaths(settings: ConfigSettings, folder: string): ConfigSettings {
  // `-` is standard output (`"output": "-"`), not a file beside the config.
  const at = (path: string) => (path === '-' || isAbsolute(path) ? path : resolve(folder, path));
  const resolved: ConfigSettings = { ...settings };
  for (const key of ['output', 'schema', 'baseline'] as const) if (settings[key] !== undefined) resolved[key] = at(settings[key]);
  if (settings.codes !== undefined) resolved.codes = [settings.codes].flat().map(at);
  if (settings.format !== undefined) {
    resolved.format = [settings.format].flat().map((target) => {
      const equals = target.indexOf('=');
      // Left as it is, so that the format's own check says "the file name is missing".
      if (equals === target.length - 1) return target;
      return equals === -1 ? target : `${target.slice(0, equals)}=${at(target.slice(equals + 1))}`;
    });
  }
  return resolved;
}

export function loadConfig(path: string): LoadedConfig {
  const data = readJsonFile(path, 'config');
  // The name exactly, so that `--config team-package.json` holding settings is read as a config file, not a package.json.
  const isPackage = basename(path) === 'package.json';
  if (isPackage && !(typeof data === 'object' && data !== null && Object.hasOwn(data, packageKey))) {
    throw new UsageError(`config ${path}: a package.json holds its settings under the key "${packageKey}", which this one does not have`);
  }
  const pointer = isPackage ? `/${packageKey}` : '';
  const settings = validated(isPackage ? (data as Record<string, unknown>)[packageKey] : data, path, pointer);
  return { path, settings: resolvePaths(settings, dirname(resolve(path))), pointer };
}

function packageHasKey(path: string): boolean {
  try {
    const data = readJsonFile(path, 'config');
    return typeof data === 'object' && data !== null && Object.hasOwn(data, packageKey);
  } catch (error) {
    // A broken package.json that is not ours to read is not a reason to fail the run; one that
    // names our key is our config, which would otherwise be left out without a word.
    if (readFileSync(path, 'latin1').includes(`"${packageKey}"`)) throw error;
    return false;
  }
}

/** Where `path` links to, when it is a link; undefined when it is none or cannot be looked at. */
function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(path) : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest config from `cwd` upward: the config file first, then package.json with our key. */
export function findConfig(cwd: string): LoadedConfig | undefined {
  for (let folder = resolve(cwd); ; folder = dirname(folder)) {
    const file = join(folder, configFileName);
    if (existsSync(file)) return loadConfig(file);
    // existsSync() follows links: a config linked to a file that is gone would be passed over without
    // a word, and the search would go on upward to another config, or to none.
    const target = linkTarget(file);
    if (target !== undefined) throw new UsageError(`config ${file}: a link to ${target}, which leads to no file: mend or remove the link, or run with --no-config`);
    const pkg = join(folder, 'package.json');
    if (existsSync(pkg) && packageHasKey(pkg)) return loadConfig(pkg);
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * The files a config names for `keys`, where the command line did not name its own, are there; one
 * that is not is named with the config and the key. `check` and `explain` (which reads the codes and
 * schema) say it alike.
 */
export function refuseMissingPaths(config: LoadedConfig, keys: readonly ('schema' | 'baseline' | 'codes')[], fromCommandLine: (key: string) => boolean): void {
  const { settings } = config;
  const typed = (key: string) => fromCommandLine(key) || (key === 'schema' && fromCommandLine('schemaVersion'));
  const fromConfig = (key: 'schema' | 'baseline' | 'codes') => keys.includes(key) && settings[key] !== undefined && !typed(key);
  const paths: [string, string | undefined][] = [
    ['schema', fromConfig('schema') ? settings.schema : undefined],
    ['baseline', fromConfig('baseline') ? settings.baseline : undefined],
    ...(fromConfig('codes') ? [settings.codes ?? []].flat().map((path, i, all): [string, string] => [all.length > 1 ? `codes/${i}` : 'codes', path]) : []),
  ];
  for (const [key, path] of paths) {
    if (path !== undefined && path !== '-' && !existsSync(path)) throw new UsageError(`config ${config.path}: ${config.pointer}/${key}: there is no ${path} (a config's paths are relative to its own folder)`);
  }
}

/** The config file `--config`/`--no-config` (or a library caller's `config`) name, or the one found upward from the working directory. */
export function configOf(flag: string | false | undefined): LoadedConfig | undefined {
  if (flag === false) return undefined;
  return typeof flag === 'string' ? loadConfig(flag) : findConfig(process.cwd());
}

/** The `config` option of checkEnvelope() and the matchers: a config file's path, or false for none. */
export const aConfigChoice = expecting('the path of a config file, or false to read none', (value) => value === false || optionChecks.schema(value) === undefined);

/** What decides how one value is checked: the part of a config that checkEnvelope() and the matchers apply. */
export type EnvelopeSettings = Pick<CheckOptions, 'schema' | 'schemaVersion' | 'codes' | 'strictCodes' | 'rules'>;

/**
 * `given` over the config's envelope settings, as the command line's options go over the config's:
 * each option given wins, `schema` and `schemaVersion` are one setting (either given replaces both,
 * spec section 8.3), `rules` merge rule by rule; cli-options.ts `mergeConfig` does the same for
 * every option of the command line. The config's paths that it uses are held to exist.
 */
export function envelopeSettings(config: LoadedConfig | undefined, given: EnvelopeSettings): EnvelopeSettings {
  const isGiven = (key: string) => given[key as keyof EnvelopeSettings] !== undefined;
  if (config === undefined) return given;
  refuseMissingPaths(config, ['schema', 'codes'], isGiven);
  const { settings } = config;
  const schemaFrom = isGiven('schema') || isGiven('schemaVersion') ? given : settings;
  const codes = given.codes ?? (settings.codes === undefined ? undefined : [settings.codes].flat());
  const strictCodes = given.strictCodes ?? settings.strictCodes;
  // strictCodes given wins over the config's settings of the two rules it sets, as --strict-codes does.
  const configRules = Object.entries(settings.rules ?? {}).filter(([id]) => !(given.strictCodes === true && (id === 'unknown-code' || id === 'unknown-warning-code')));
  const rules = settings.rules === undefined ? given.rules : { ...Object.fromEntries(configRules), ...given.rules };
  return {
    ...(schemaFrom.schema !== undefined && { schema: schemaFrom.schema }),
    ...(schemaFrom.schemaVersion !== undefined && { schemaVersion: schemaFrom.schemaVersion }),
    ...(codes !== undefined && { codes }),
    ...(strictCodes !== undefined && { strictCodes }),
    ...(rules !== undefined && { rules }),
  };
}

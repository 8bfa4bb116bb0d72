// `--format sarif`: a SARIF 2.1.0 log for code-scanning uploads (GitHub, Azure DevOps, IDE viewers).
// Spec: https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
// Every rule of the catalog is declared, not only those that fired, so that viewers can show the
// full rule set and `ruleIndex` stays stable between runs. Lists all findings (spec section 7).
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageHomepage, releaseFileUrl } from '../assets.js';
import { ruleDefinition, ruleIds } from '../checks/catalog.js';
import type { Finding, Report, RuleId, Severity, Wrapping } from '../types.js';
import type { FormatOptions } from './options.js';
import { relativeSourcePath } from './paths.js';
import { wellFormed } from '../text.js';
import { jsonWithoutCommands, mapped, messageWithSuggestion, streamJson, streamedArray } from './common.js';
import { zipEntrySource } from './zip-sources.js';

const sarifSchema = 'https://json.schemastore.org/sarif-2.1.0.json';

interface SarifRule {
  id: RuleId;
  /** The rule's page in the docs of this release. */
  helpUri: string;
  shortDescription: { text: string };
  /** GitHub shows it at the top of an alert; help below it. */
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  defaultConfiguration: { level: Severity };
}

interface SarifResultProperties {
  pointer?: string;
  tool?: string;
  wrapping?: Wrapping;
}

interface SarifResult {
  ruleId: RuleId;
  ruleIndex: number;
  level: Severity;
  message: { text: string };
  locations: {
    physicalLocation: {
      artifactLocation: { uri: string; index?: number };
      region: { startLine: number; startColumn?: number };
    };
  }[];
  properties?: SarifResultProperties;
}

interface SarifArtifact {
  location: { uri: string };
  parentIndex?: number;
}

interface SarifInvocation {
  executionSuccessful: boolean;
  exitSignalName?: string;
  /** An input that could not be read: SARIF's word for a file the tool failed on. */
  toolExecutionNotifications?: { level: 'error'; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[];
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: [
    {
      tool: { driver: { name: string; version: string; informationUri: string; rules: SarifRule[] } };
      /** Our columns count UTF-16 code units (spec section 6), which is also SARIF's default. */
      columnKind: 'utf16CodeUnits';
      /** Only for a run that did not complete (interrupted, or inputs unread): SARIF's word for it. */
      invocations?: SarifInvocation[];
      /** Only when findings are inside zips: each zip, and each entry as an artifact nested in it (SARIF 3.24.3, parentIndex). */
      artifacts?: SarifArtifact[];
      results: SarifResult[];
    },
  ];
}

/**
 * What `explain <rule>` says, for the alert a code-scanning viewer shows: with only a short
 * description, an alert said what fired but not what breaks the rule or how to set it.
 */
function sarifRule(id: RuleId): SarifRule {
  const { description, defaultSeverity, example, docs } = ruleDefinition(id);
  const setting = `--rule ${id}=off|warning|error (default ${defaultSeverity})`;
  const [exampleText, exampleMarkdown] = example === '' ? ['An input with no record (an empty file) breaks it.', 'An input with no record (an empty file) breaks it.'] : [`A record that breaks it:\n${example}`, `A record that breaks it:\n\n\`\`\`json\n${example}\n\`\`\``];
  return {
    id,
    helpUri: releaseFileUrl(docs),
    shortDescription: { text: description },
    fullDescription: { text: `mcec-result rule ${id}: ${description}.` },
    help: {
      text: `${description}.\n\n${exampleText}\n\nSetting: ${setting}. More: mcec-result explain ${id}`,
      markdown: `${description}.\n\n${exampleMarkdown}\n\nSetting: \`${setting}\`. More: \`mcec-result explain ${id}\``,
    },
    defaultConfiguration: { level: defaultSeverity },
  };
}

function sarifRules(): SarifRule[] {
  return ruleIds.map(sarifRule);
}

const ruleIndex = new Map<RuleId, number>(ruleIds.map((id, index) => [id, index]));

/**
 * `artifactLocation.uri` is a URI reference (SARIF 3.4.3), not a path: each segment is
 * percent-encoded so that `#`, `%`, `?`, spaces or a `:` in a first segment keep their meaning as
 * file-name characters. A path that stays absolute (another Windows drive) becomes a file: URL.
 */
function artifactUri(source: string, cwd: string): string {
  // A lone surrogate (a Windows file name may hold one) has no UTF-8 bytes: encodeURIComponent threw
  // URIError, and the whole SARIF log was lost. It is written as U+FFFD, as JSON text cannot hold it either.
  const path = wellFormed(relativeSourcePath(source, cwd));
  if (isAbsolute(path)) return pathToFileURL(path).href;
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * artifactUri, remembered for the last source: a report lists an input's findings together, and
 * working the URI out again for each of 16k findings was a quarter of the format's time.
 */
function lastUri(cwd: string): (source: string) => string {
  let lastSource: string | undefined;
  let uri = '';
  return (source) => {
    if (source !== lastSource) {
      uri = artifactUri(source, cwd);
      lastSource = source;
    }
    return uri;
  };
}

/** Assigned member by member: spreads of conditional objects cost more than the rest of a result. */
function resultProperties(finding: Finding): SarifResultProperties | undefined {
  const { location, tool, wrapping } = finding;
  if (location.pointer === undefined && tool === undefined && wrapping === undefined) return undefined;
  const properties: SarifResultProperties = {};
  if (location.pointer !== undefined) properties.pointer = location.pointer;
  if (tool !== undefined) properties.tool = tool;
  if (wrapping !== undefined) properties.wrapping = wrapping;
  return properties;
}

/**
 * The zips that findings are in, as SARIF artifacts: the zip, then each entry with the zip as its
 * parent. A run's report names the inputs it read, and when none is a zip entry the findings are
 * not walked an extra time; a merged report's are.
 */
class ZipArtifacts {
  readonly list: SarifArtifact[] = [];
  private readonly index = new Map<string, number>();

  constructor(report: Report, cwd: string) {
    if (report.inputsRead !== undefined && !report.inputsRead.some((name) => zipEntrySource(name) !== undefined)) return;
    let last: string | undefined;
    for (const { location } of report.findings) {
      if (location.source === last) continue;
      last = location.source;
      const inZip = zipEntrySource(location.source);
      if (!inZip || this.index.has(location.source)) continue;
      let parent = this.index.get(inZip.zip);
      if (parent === undefined) {
        parent = this.list.push({ location: { uri: artifactUri(inZip.zip, cwd) } }) - 1;
        this.index.set(inZip.zip, parent);
      }
      this.index.set(location.source, this.list.push({ location: { uri: inZip.entry.split('/').map((part) => encodeURIComponent(wellFormed(part))).join('/') }, parentIndex: parent }) - 1);
    }
  }

  /** The artifact location of a finding's source: a zip entry's names its artifact's uri and index. */
  locationOf(source: string, uriOf: (source: string) => string): { uri: string; index?: number } {
    const index = this.list.length === 0 ? undefined : this.index.get(source);
    if (index === undefined) return { uri: uriOf(source) };
    return { uri: this.list[index]!.location.uri, index };
  }
}

function toSarifResult(finding: Finding, uriOf: (source: string) => string, zips?: ZipArtifacts): SarifResult {
  const { source, line, column } = finding.location;
  const properties = resultProperties(finding);
  return {
    ruleId: finding.rule,
    ruleIndex: ruleIndex.get(finding.rule)!,
    level: finding.severity,
    message: { text: messageWithSuggestion(finding) },
    locations: [
      {
        physicalLocation: {
          artifactLocation: zips ? zips.locationOf(source, uriOf) : { uri: uriOf(source) },
          region: { startLine: line, ...(column !== undefined && { startColumn: column }) },
        },
      },
    ],
    ...(properties !== undefined && { properties }),
  };
}

/** Only for a run that did not complete: stopped by Ctrl-C, or with inputs it could not read. */
function invocation({ summary }: Report, uriOf: (source: string) => string): SarifInvocation {
  const notifications = (summary.unreadable ?? []).map((failure) => ({
    level: 'error' as const,
    message: { text: failure.message },
    locations: [{ physicalLocation: { artifactLocation: { uri: uriOf(failure.source) } } }],
  }));
  return { executionSuccessful: false, ...(summary.interrupted && { exitSignalName: 'SIGINT' }), ...(notifications.length > 0 && { toolExecutionNotifications: notifications }) };
}

function sarifLog(report: Report, results: SarifResult[], uriOf: (source: string) => string, zips: ZipArtifacts): SarifLog {
  return {
    $schema: sarifSchema,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: report.tool.name, version: report.tool.version, informationUri: packageHomepage(), rules: sarifRules() } },
        columnKind: 'utf16CodeUnits',
        ...((report.summary.interrupted || report.summary.unreadable) && { invocations: [invocation(report, uriOf)] }),
        ...(zips.list.length > 0 && { artifacts: zips.list }),
        results,
      },
    ],
  };
}

/** Results GitHub code scanning takes in one SARIF run; a log with more is refused whole. */
const codeScanningLimit = 25_000;

/**
 * What to tell a person writing this log: code scanning rejects the whole upload over its limit
 * ("results exceed limit"), which a 30,000-result log only showed in a later job. The log itself
 * still lists every finding (spec section 7).
 */
export function sarifWarning(report: Report): string | undefined {
  const results = report.findings.length;
  if (results <= codeScanningLimit) return undefined;
  return `the SARIF log holds ${results.toLocaleString('en-US')} results, and GitHub code scanning refuses a run of more than ${codeScanningLimit.toLocaleString('en-US')}: upload fewer (a --baseline keeps the known findings out)`;
}

/** The whole log as one value (it holds every result: for large reports, `formatSarif` streams). */
export function toSarifLog(report: Report, options: FormatOptions): SarifLog {
  const uriOf = lastUri(options.cwd);
  const zips = new ZipArtifacts(report, options.cwd);
  return sarifLog(report, Array.from(report.findings, (finding) => toSarifResult(finding, uriOf, zips)), uriOf, zips);
}

export function* formatSarif(report: Report, options: FormatOptions): Generator<string> {
  const uriOf = lastUri(options.cwd);
  const zips = new ZipArtifacts(report, options.cwd);
  yield* jsonWithoutCommands(streamJson(sarifLog(report, streamedArray(), uriOf, zips), mapped(report.findings, (finding) => toSarifResult(finding, uriOf, zips))));
}

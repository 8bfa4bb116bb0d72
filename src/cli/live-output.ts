// The CLI's output while a run goes on (spec section 8.10): when an input is a pipe, a FIFO, a
// terminal or a followed file, and one streamable format (human, github, ndjson) goes to standard
// output, findings are written as they become final, inputs in command-line order, and the
// summary at the end. Everything else is written at the end.
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import type { FormatTarget } from './cli-options.js';
import type { FormatName } from '../formatters/names.js';
import type { FormatOptions } from '../formatters/options.js';
import { LiveFindings, type StreamWriter } from '../formatters/streamed.js';
import { hintText } from '../framing/ndjson.js';
import type { LiveObserver } from '../live.js';
import type { InputSource } from '../sources/input-source.js';
import type { Finding, ParseHint, Report } from '../types.js';

const streamable: readonly FormatName[] = ['human', 'github', 'ndjson'];

/** Standard input is a pipe, a FIFO, a terminal or a socket: its end comes when its writer says so. */
export function stdinIsLive(): boolean {
  try {
    return !fstatSync(0).isFile();
  } catch {
    return false;
  }
}

/** A named input that is no regular file or folder: a FIFO or a device (`<(tail -f log)`). */
function isSpecialPath(path: string): boolean {
  try {
    const stats = statSync(path);
    return !stats.isFile() && !stats.isDirectory();
  } catch {
    return false;
  }
}

/** Whether any input of the command line is read live. */
export function anyLiveInput(inputs: readonly string[], follow: boolean): boolean {
  return follow || inputs.some((input) => (input === '-' ? stdinIsLive() : isSpecialPath(input)));
}

/** The one report to standard output, when there is exactly one and its format streams. */
export function streamedTarget(targets: readonly FormatTarget[], output: string | undefined): FormatTarget | undefined {
  const toStdout = targets.filter((target) => (target.file === undefined && output === undefined) || target.file === '-');
  return toStdout.length === 1 && streamable.includes(toStdout[0]!.format) ? toStdout[0] : undefined;
}

async function writerFor(format: FormatName, options: FormatOptions): Promise<StreamWriter> {
  if (format === 'github') return (await import('../formatters/github.js')).githubWriter(options);
  if (format === 'ndjson') return (await import('../formatters/ndjson.js')).ndjsonWriter();
  return (await import('../formatters/human.js')).humanWriter(options);
}

/** What a hint says as a sentence of its own: the text a report written at the end adds to the first parse error. */
function hintSentence(hint: ParseHint): string {
  return hintText[hint].trim().replace(/^\(/, '').replace(/\)$/, '');
}

/** A finding of a live input in ndjson: a report written as it goes holds no more than this many at once. */
const ndjsonBatch = 1024;

export interface LiveOutput {
  observer: LiveObserver;
  /** The text that ends the report: the last input's end, the hints, the summary. */
  end(report: Report): string;
}

/**
 * The observer that writes a live run's report. `write` takes each piece at once; `say` writes a
 * line on stderr (a followed file's start and restarts); `isNew` is a baseline's filter (findings
 * it knows are not written).
 */
export async function liveOutput(target: FormatTarget, options: FormatOptions, follow: boolean, write: (text: string) => void, say: (text: string) => void, isNew?: (finding: Finding) => boolean): Promise<LiveOutput> {
  const writer = await writerFor(target.format, options);
  const live = new LiveFindings(writer);
  const hints: [string, ParseHint][] = [];
  const kept = (findings: Iterable<Finding>): Iterable<Finding> => (isNew ? filtered(findings, isNew) : findings);
  const stdinLive = stdinIsLive();
  const observer: LiveObserver = {
    streams: (source: InputSource) => follow || source.special === true || (source.path === undefined && stdinLive),
    findings: (source, batch) => write(live.findings(source, kept(batch))),
    restart: (source, reason) => {
      const text = `${reason === 'rotated' ? 'replaced (rotated)' : 'truncated'}: read again from its start; line numbers and pairing start afresh`;
      say(`${source}: ${text}`);
      write(live.note(source, text));
    },
    // Said once the file is open: what is appended from now on is read.
    following: (source, line) => say(`following ${source} from line ${line}: Ctrl-C (or SIGTERM) ends the run with its summary`),
    inputDone: (source, findings, hint) => {
      // An input that did not stream is listed as a report written at the end lists it: as one
      // block, aligned, of which only the listed findings are held; ndjson, which aligns nothing and
      // lists all, in batches.
      if (target.format === 'ndjson') {
        let batch: Finding[] = [];
        for (const finding of kept(findings)) {
          batch.push(finding);
          if (batch.length === ndjsonBatch) write(live.findings(source, batch)), (batch = []);
        }
        if (batch.length > 0) write(live.findings(source, batch));
      } else write(live.findings(source, kept(findings)));
      write(live.end());
      if (hint !== undefined) hints.push([source, hint]);
    },
  };
  return {
    observer,
    end: (report) => {
      // The human summary has a line of its own for an input of prefixed log lines (spec section 8.8).
      const inSummary = (source: string, hint: ParseHint) => target.format === 'human' && hint === 'prefix' && report.extractHints?.includes(source) === true;
      const said = hints.flatMap(([source, hint]) => (inSummary(source, hint) ? [] : [writer.hint(source, hintSentence(hint))])).join('');
      return live.end() + said + writer.summary(report);
    },
  };
}

function* filtered(findings: Iterable<Finding>, keep: (finding: Finding) => boolean): Generator<Finding> {
  for (const finding of findings) if (keep(finding)) yield finding;
}

/**
 * `--follow` (spec section 8.10) takes exactly one regular, line-delimited, uncompressed file, and
 * nothing that needs a run to end on its own: a shard of one file, a baseline of what a live run
 * happened to read, a document framing that waits for the document's end.
 */
export function followProblem(inputs: readonly string[], flags: { follow?: boolean; fromStart?: boolean; shard?: unknown; writeBaseline?: string; input: string }): string | undefined {
  if (!flags.follow) return flags.fromStart ? '--from-start: reads a followed file from its beginning: add --follow' : undefined;
  if (inputs.length !== 1) return `--follow: reads exactly one file, got ${inputs.length} inputs`;
  if (flags.shard !== undefined) return '--follow: reads one file as it grows, which --shard cannot split: drop one of them';
  if (flags.writeBaseline !== undefined) return '--follow: a baseline of a followed file would hold whatever was read before Ctrl-C: write it from a run over the file as it stands (without --follow)';
  if (flags.input === 'json') return '--follow: reads a line-delimited file line by line; --input json reads one document to its end: drop one of them';
  const input = inputs[0]!;
  if (input === '-') return '--follow: follows a file, not standard input: pipe into `check -` instead (tail -f agent.log | mcec-result check -)';
  let stats;
  try {
    stats = statSync(input);
  } catch {
    return `--follow ${input}: no such file`;
  }
  if (!stats.isFile()) return `--follow ${input}: not a regular file: --follow takes one log file (a FIFO or device is read live without it)`;
  if (/\.json$/i.test(input)) return `--follow ${input}: a .json file is one document, read to its end: --follow takes a line-delimited file (.jsonl, .ndjson, .log)`;
  const head = firstBytes(input);
  if (/\.gz$/i.test(input) || (head[0] === 0x1f && head[1] === 0x8b)) return `--follow ${input}: a compressed file cannot be followed as it grows: follow the uncompressed log`;
  // Read as it grows, a file is framed as UTF-8 bytes: a UTF-16 one is decoded only when read whole.
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return `--follow ${input}: a UTF-16 file is read whole, not followed: check it without --follow, or have the writer write UTF-8`;
  return undefined;
}

/** The file's first two bytes (fewer for a shorter file). */
function firstBytes(path: string): Buffer {
  const head = Buffer.alloc(2);
  try {
    const fd = openSync(path, 'r');
    try {
      return head.subarray(0, readSync(fd, head, 0, 2, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return head.subarray(0, 0);
  }
}

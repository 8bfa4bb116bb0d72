// The formats that can be written while a live input is still read (spec section 8.10): human,
// github and ndjson. Each is a writer of pieces from a stream of findings followed by the summary;
// the whole-report formatters are the same writers fed a finished report, so their bytes are the
// ones a run writes at its end.
import type { Finding, Report } from '../types.js';
import { listedBySource } from './common.js';
import type { FormatOptions } from './options.js';

/** How a format writes a stream of findings, input by input, then the summary. */
export interface StreamWriter {
  /** Whether a finding is shown at all (human --quiet: errors only); one not shown counts nowhere. */
  shows(finding: Finding): boolean;
  /** Findings of one input listed together, in report order (a live input's: those final at once). */
  listed(source: string, findings: readonly Finding[]): string;
  /** The end of an input that showed findings: `rest` of them were not listed (--max-listed). */
  inputEnd(source: string, rest: number): string;
  /** A line about the reading itself (a followed file read again from its start); '' where the format has none. */
  note(source: string, text: string): string;
  /** What a live input's first parse error suggests (`--extract`), said with the summary; '' where the format has no place for it. */
  hint(source: string, text: string): string;
  /** The summary of the run. */
  summary(report: Report): string;
  /** Findings listed per input; 0 lists all. */
  readonly maxListed: number;
}

/**
 * A finished report's findings through `writer`: one piece per input listed, one for its end, as the
 * whole-report formatters write them (only the listed findings of an input are held at once).
 */
export function* reportFindings(writer: StreamWriter, findings: Iterable<Finding>): Generator<string> {
  for (const group of listedBySource(shownBy(writer, findings), writer.maxListed)) {
    yield writer.listed(group.source, group.listed);
    yield writer.inputEnd(group.source, group.rest);
  }
}

function* shownBy(writer: StreamWriter, findings: Iterable<Finding>): Generator<Finding> {
  for (const finding of findings) if (writer.shows(finding)) yield finding;
}

/**
 * A live run's findings through `writer`: inputs in the order they come, a batch at a time, each
 * input listing at most --max-listed and saying how many more at its end.
 */
export class LiveFindings {
  private source: string | undefined;
  private shown = 0;
  private rest = 0;

  constructor(private readonly writer: StreamWriter) {}

  /** Findings of one input, final, in report order; the text to write now. */
  findings(source: string, batch: Iterable<Finding>): string {
    let text = source === this.source ? '' : this.end();
    this.source = source;
    const listed: Finding[] = [];
    const { maxListed } = this.writer;
    for (const finding of batch) {
      if (!this.writer.shows(finding)) continue;
      if (maxListed === 0 || this.shown < maxListed) listed.push(finding);
      else this.rest++;
      this.shown++;
    }
    if (listed.length > 0) text += this.writer.listed(source, listed);
    return text;
  }

  /** A line about reading `source` (its findings so far stay its own). */
  note(source: string, text: string): string {
    const before = source === this.source ? '' : this.end();
    return before + this.writer.note(source, text);
  }

  /** The current input is over: "and N more", the end of its block. */
  end(): string {
    const source = this.source;
    const text = source !== undefined && this.shown > 0 ? this.writer.inputEnd(source, this.rest) : '';
    this.source = undefined;
    this.shown = 0;
    this.rest = 0;
    return text;
  }

  /** The run is over: the last input's end, then the summary. */
  summary(report: Report): string {
    return this.end() + this.writer.summary(report);
  }
}

export type StreamWriterFactory = (options: FormatOptions) => StreamWriter;

// What a run tells its caller while it goes on, for output written as inputs are read (spec section
// 8.10). The run decides nothing about formats: it hands over each input's findings in command-line
// order, a streamed input's as they become final.
import type { InputSource } from './sources/input-source.js';
import type { Finding, ParseHint } from './types.js';

export interface LiveObserver {
  /** Whether this input's findings are handed over as they become final (a pipe, a FIFO, a terminal, a followed file). */
  streams(source: InputSource): boolean;
  /** Final findings of a streamed input, in reading order; at its end, those known only then. */
  findings(source: string, batch: readonly Finding[]): void;
  /** A followed file is read again from its start; line numbers and pairing start afresh. */
  restart(source: string, reason: 'rotated' | 'truncated'): void;
  /** A followed file is open, and read from `line` on. */
  following(source: string, line: number): void;
  /**
   * An input is done: its findings not handed over yet, in report order (all of an input that did
   * not stream). `hint`: what a streamed input's first parse error suggested (its message, handed
   * over before the hint was known, does not say it).
   */
  inputDone(source: string, findings: Iterable<Finding>, hint: ParseHint | undefined): void;
}

export interface LiveRun {
  observer: LiveObserver;
  /** `--follow`: the one input is a file read as it grows, until the signal. */
  follow?: { fromStart: boolean };
}

export interface FormatOptions {
  /** Decided once by the CLI (NO_COLOR, FORCE_COLOR, --color/--no-color, terminal or not). */
  color: boolean;
  /** Findings listed per input in human, GitHub and Markdown output; 0 lists all. */
  maxListed: number;
  /** Human output: error findings and the summary only. */
  quiet: boolean;
  /** SARIF and GitHub output give paths relative to this folder, with forward slashes. */
  cwd: string;
  /**
   * The run fails when warnings exceed this (`--max-warnings`, when it applies: not with
   * `--exit-zero`): the formats that give a verdict say so, not "✅" over a failing run.
   */
  maxWarnings?: number;
}

export const defaultFormatOptions: FormatOptions = { color: false, maxListed: 100, quiet: false, cwd: '.' };

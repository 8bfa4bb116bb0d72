// The end of `check --help`: examples a user can paste as they are, each under a comment that says
// what it does. test/cli-help.test.ts runs every one of them, as written, on real files.

const examples: readonly [what: string, command: string][] = [
  ['every .json, .jsonl, .ndjson and .log file under a folder (and .gz of those)', 'mcec-result check runs/'],
  ['an MCEC evidence bundle, zipped or as its folder', 'mcec-result check evidence/20260701-101502-5f19c9c01a3f.zip'],
  ['envelopes inside prefixed log lines, from standard input', "grep 'agent result' server.log | mcec-result check --extract -"],
  ['in CI: annotations in the log, and SARIF for code scanning', 'mcec-result check runs/ -f github -f sarif=mcec.sarif'],
  ['only findings a recorded baseline does not hold (record one with --write-baseline)', 'mcec-result check runs/ --baseline mcec-baseline.json'],
  ['a growing log, checked as it is written, until Ctrl-C', 'mcec-result check --follow --extract server.log'],
  ["against an older MCEC release's envelope schema", 'mcec-result check --schema-version 2026-06 runs/'],
  ['the settings a run would use, after the config file and these options', 'mcec-result check --print-config'],
];

/** The examples block, as commander prints text after the options. */
export const checkExamples = (): string => `\nExamples:\n${examples.map(([what, command]) => `  # ${what}\n  ${command}`).join('\n')}`;

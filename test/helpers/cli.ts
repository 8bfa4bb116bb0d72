// Runs the built binary the way a user does: a real process, real files, real exit status.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const binary = join(repoRoot, 'bin/mcec-result.js');

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  input?: string | Buffer;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Kills the process after this long (its status is then null): for a run that could hang. */
  timeoutMs?: number;
}

export function runCli(args: readonly string[], options: CliOptions = {}): CliResult {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...options.env };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const result = spawnSync(process.execPath, [binary, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: env as NodeJS.ProcessEnv,
    input: options.input ?? '',
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...(options.timeoutMs !== undefined && { timeout: options.timeoutMs }),
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Runs `check --format json` and parses the report. */
export function runJson(args: readonly string[], options: CliOptions = {}) {
  const result = runCli(['check', '--format', 'json', ...args], options);
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    throw new Error(`stdout is not JSON (exit ${result.status}):\n${result.stdout}\n${result.stderr}`);
  }
  return { ...result, report };
}

/** A fresh folder with the given files in it. */
export function tempFiles(files: Record<string, string | Buffer>): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcec-result-test-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), content);
  }
  return dir;
}

export const lines = (...records: unknown[]) => records.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n';

/** A folder with `mcec-result` on PATH (in its `.bin`), as an installed package puts it; `files` copied in from the repository. */
export function installedWorkdir(files: Record<string, string> = {}): string {
  const dir = tempFiles({});
  for (const [to, from] of Object.entries(files)) cpSync(join(repoRoot, from), join(dir, to), { recursive: true });
  mkdirSync(join(dir, '.bin'));
  writeFileSync(join(dir, '.bin/mcec-result'), `#!/bin/sh\nexec "${process.execPath}" "${binary}" "$@"\n`);
  chmodSync(join(dir, '.bin/mcec-result'), 0o755);
  return dir;
}

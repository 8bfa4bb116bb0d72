// Every test file writes into one temporary folder of its own, removed when its tests end: its files
// (tempFiles), the spool of the runs it makes in this process, and that of the CLI processes it
// starts (they inherit TMPDIR). Each `npm test` used to leave some 200 folders (~200 MB) in /tmp.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// A process may run several test files: each one's folder is made in the system's, not the last's.
const base = (process.env['MCEC_TEST_TMPDIR_BASE'] ??= tmpdir());
const root = mkdtempSync(join(base, 'mcec-result-test-'));
process.env['TMPDIR'] = root;

afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 3 }));

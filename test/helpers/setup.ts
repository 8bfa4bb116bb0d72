// Every test file writes into one temporary folder of its own, removed when its tests end: its files
// (tempFiles), the spool of the runs it makes in this process, and that of the CLI processes it
// starts (they inherit TMPDIR), so that `npm test` leaves nothing behind in the system's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

// A process may run several test files: each one's folder is made in the system's, not the last's.
const base = (process.env['MCEC_TEST_TMPDIR_BASE'] ??= tmpdir());
const root = mkdtempSync(join(base, 'mcec-result-test-'));
process.env['TMPDIR'] = root;

// Node reads and parses the certificate file NODE_EXTRA_CA_CERTS names at every start, before any
// code runs, whether or not the process opens a connection; where npm goes through a proxy with a
// CA of its own, that is most of a small CLI run's start-up, which nearly every test pays. No process
// a test starts opens a connection but npm's installs (pack.test.ts), which take the file back from
// MCEC_TEST_NODE_EXTRA_CA_CERTS.
const certificates = process.env['NODE_EXTRA_CA_CERTS'];
if (certificates !== undefined) {
  process.env['MCEC_TEST_NODE_EXTRA_CA_CERTS'] = certificates;
  delete process.env['NODE_EXTRA_CA_CERTS'];
}

afterAll(() => rmSync(root, { recursive: true, force: true, maxRetries: 3 }));

import { describe, expect, it } from 'vitest';
import { progressLine, progressText } from '../src/cli/progress-line.js';

function fakeStream(isTTY: boolean, columns?: number) {
  const writes: string[] = [];
  return { stream: { isTTY, columns, write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream, writes };
}

const large = { bytes: 50 * 1024 * 1024, totalBytes: 100 * 1024 * 1024, entries: 20_000, findings: 1234, elapsedMs: 2000 };

describe('the progress line', () => {
  it('says bytes read of total, records/s and findings so far', () => {
    expect(progressText(large)).toBe('checking: 50.0 MiB of 100.0 MiB (50%), 10,000 records/s, 1,234 findings');
    // A file that grew while read (a live log) reads past its measured size: never over 100 %.
    expect(progressText({ ...large, bytes: 150 * 1024 * 1024 })).toBe('checking: 150.0 MiB of 100.0 MiB (100%), 10,000 records/s, 1,234 findings');
  });

  it('is redrawn in place on a terminal and cleared at the end', () => {
    const { stream, writes } = fakeStream(true);
    const line = progressLine(stream, {}, true)!;
    line.update(large);
    line.update({ ...large, bytes: large.totalBytes });
    line.clear();
    expect(writes).toEqual([`\r\u001b[K${progressText(large)}`, `\r\u001b[K${progressText({ ...large, bytes: large.totalBytes })}`, '\r\u001b[K']);
  });

  it('fits a narrow terminal: cut to one column less than its width, so it never wraps', () => {
    const { stream, writes } = fakeStream(true, 40);
    progressLine(stream, {}, true)!.update(large);
    expect(writes).toEqual([`\r\u001b[K${progressText(large).slice(0, 39)}`]);
    const wide = fakeStream(true, 200);
    progressLine(wide.stream, {}, true)!.update(large);
    expect(wide.writes).toEqual([`\r\u001b[K${progressText(large)}`]);
  });

  it('stays quiet for a small, quick run', () => {
    const { stream, writes } = fakeStream(true);
    const line = progressLine(stream, {}, true)!;
    line.update({ ...large, totalBytes: 1000, elapsedMs: 200 });
    line.clear();
    expect(writes).toEqual([]);
  });

  it('shows for a large input at once, and for a small one once the run is slow', () => {
    const quickLarge = fakeStream(true);
    progressLine(quickLarge.stream, {}, true)!.update({ ...large, elapsedMs: 10 });
    expect(quickLarge.writes).toHaveLength(1);
    // Standard input has no size: a slow run is the only sign it is worth watching.
    const slowSmall = fakeStream(true);
    const line = progressLine(slowSmall.stream, {}, true)!;
    line.update({ ...large, totalBytes: 0, elapsedMs: 999 });
    expect(slowSmall.writes).toEqual([]);
    line.update({ ...large, totalBytes: 0, elapsedMs: 1000 });
    expect(slowSmall.writes).toEqual([`\r\u001b[K${progressText({ ...large, totalBytes: 0, elapsedMs: 1000 })}`]);
  });

  it('never shows in pipes, in CI, on a dumb terminal, or with --no-progress', () => {
    expect(progressLine(fakeStream(false).stream, {}, true)).toBeUndefined();
    expect(progressLine(fakeStream(true).stream, { CI: 'true' }, true)).toBeUndefined();
    expect(progressLine(fakeStream(true).stream, { CI: '1' }, true)).toBeUndefined();
    // CI set to "false" or empty (as some shells export it) is no CI.
    for (const CI of ['false', '']) expect(progressLine(fakeStream(true).stream, { CI }, true), CI).toBeDefined();
    expect(progressLine(fakeStream(true).stream, {}, false)).toBeUndefined();
    expect(progressLine(fakeStream(true).stream, { TERM: 'dumb' }, true)).toBeUndefined();
  });
});

// The progress line on stderr (issue 5): one line, rewritten in place, only on a terminal and never
// in CI logs or pipes, and only once the run is large or slow enough to be worth watching.
import type { RunProgress } from '../context.js';

const largeInput = 16 * 1024 * 1024;
const slowRunMs = 1000;

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function progressText(p: RunProgress): string {
  const rate = p.elapsedMs > 0 ? Math.round((p.entries * 1000) / p.elapsedMs) : 0;
  const share = p.totalBytes > 0 ? ` (${Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100))}%)` : '';
  const total = p.totalBytes > 0 ? ` of ${mebibytes(p.totalBytes)}` : '';
  return `checking: ${mebibytes(p.bytes)}${total}${share}, ${rate.toLocaleString('en-US')} records/s, ${p.findings.toLocaleString('en-US')} findings`;
}

export interface ProgressLine {
  update(progress: RunProgress): void;
  clear(): void;
}

export function progressLine(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv, enabled: boolean): ProgressLine | undefined {
  // A dumb terminal does not know erase-line: each update would be a line of its own.
  if (!enabled || stream.isTTY !== true || env['TERM'] === 'dumb' || (env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false')) return undefined;
  let shown = false;
  return {
    update(progress) {
      if (!shown && progress.totalBytes < largeInput && progress.elapsedMs < slowRunMs) return;
      shown = true;
      // \r and erase-line: the line is redrawn in place, never scrolled.
      // Cut to the terminal's width, read at each update (it may be resized): a line that wraps
      // leaves its first rows behind, since \r only goes back to the start of the last one.
      const text = progressText(progress);
      const width = stream.columns;
      stream.write(`\r\u001b[K${width > 1 && text.length >= width ? text.slice(0, width - 1) : text}`);
    },
    clear() {
      if (shown) stream.write('\r\u001b[K');
    },
  };
}

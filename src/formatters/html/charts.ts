// The summary's charts as inline SVG: horizontal bars, one a row, each with its label and count as
// text, so that a chart reads without a script, a font download or colour.
import { cutText } from '../../text.js';
import { html } from './escape.js';

export interface Bar {
  label: string;
  value: number;
  /** A class for the bar's colour (ok, failed, unknown, warning, other). */
  kind?: string;
  /** Said after the count: "of 12 records". */
  note?: string;
}

const width = 520;
const labelWidth = 190;
const countWidth = 110;
const rowHeight = 22;
const labelChars = 26;

/** A figure with a caption and one bar a row; `key` names it for readers and tests (data-chart). */
export function barChart(key: string, title: string, bars: readonly Bar[], empty = 'none seen'): string {
  if (bars.length === 0) return `<figure class="chart" data-chart="${html(key)}"><figcaption>${html(title)}</figcaption><p class="none">${html(empty)}</p></figure>`;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const height = bars.length * rowHeight + 4;
  const span = width - labelWidth - countWidth;
  const rows = bars.map((bar, i) => {
    const y = i * rowHeight + 2;
    const length = bar.value === 0 ? 0 : Math.max(2, Math.round((bar.value / max) * span));
    const label = bar.label.length > labelChars ? `${cutText(bar.label, labelChars - 1)}…` : bar.label;
    const count = bar.note === undefined ? String(bar.value) : `${bar.value} ${bar.note}`;
    return (
      `<g data-label="${html(bar.label)}" data-count="${bar.value}"><title>${html(bar.label)}: ${html(count)}</title>` +
      `<text x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${html(label)}</text>` +
      `<rect class="bar ${html(bar.kind ?? 'other')}" x="${labelWidth}" y="${y + 3}" width="${length}" height="${rowHeight - 6}" rx="2"></rect>` +
      `<text x="${labelWidth + length + 6}" y="${y + 15}">${html(count)}</text></g>`
    );
  });
  return (
    `<figure class="chart" data-chart="${html(key)}"><figcaption>${html(title)}</figcaption>` +
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${html(title)}">${rows.join('')}</svg></figure>`
  );
}

// An MCP text block's envelope (src/framing/scan-text.ts): an ASCII text is handed to the scanner
// beside its bytes, so that the strings it builds are slices of the text. What it builds must be
// what the scanner builds from the bytes alone, the verdict included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanPlanFor, textPlanOf } from '../src/checks/record-plan.js';
import { scanText } from '../src/framing/scan-text.js';
import { scan } from '../src/framing/scan.js';
import { createCheckContext } from '../src/run.js';
import { envelopeLike } from './helpers/line-arbitraries.js';

/** The scanner on the text's bytes alone, with no decoded text beside them. */
function fromBytes(text: string, plan: NonNullable<ReturnType<typeof textPlanOf>>) {
  const bytes = Buffer.from(text, 'utf8');
  const scanned = scan(bytes, 0, bytes.length, plan, { quote: false });
  return scanned.ok ? { value: scanned.value, noDuplicates: scanned.duplicates.length === 0 } : undefined;
}

/** A text with a member repeated, white space around tokens or a byte cut off: what a tool may write. */
const mutated = fc.tuple(envelopeLike, fc.nat(), fc.constantFrom('none', 'repeat', 'spaces', 'cut', 'escape')).map(([envelope, at, how]) => {
  const text = JSON.stringify(envelope);
  if (how === 'repeat') return `${text.slice(0, -1)}${text.length > 2 ? ',' : ''}"ok":false}`;
  if (how === 'spaces') return text.replace(/([,:{}[\]])/g, ' $1\n');
  if (how === 'cut') return text.slice(0, at % (text.length + 1));
  if (how === 'escape') return text.replace(/"ok"/g, '"\\u006fk"').replace(/e/g, '\\u0065');
  return text;
});

describe('scanText', () => {
  for (const inlineImage of ['error', 'off'] as const) {
    const plan = textPlanOf(scanPlanFor(createCheckContext({ rules: { 'inline-image': inlineImage } }), { parser: 'scan' }))!;

    it(`builds from an ASCII text what the scanner builds from its bytes (inline-image ${inlineImage})`, () => {
      fc.assert(
        fc.property(mutated, (text) => {
          expect(scanText(text, plan)).toEqual(fromBytes(text, plan));
        }),
        { numRuns: 2000 },
      );
    });
  }

  it('builds strings equal to JSON.parse of the text, escapes and all, and past ASCII from the bytes alone', () => {
    const plan = textPlanOf(scanPlanFor(createCheckContext(), { parser: 'scan' }))!;
    const ascii = '{"ok":false,"sessionId":"s\\"1\\\\\\n\\u0041","error":{"code":"element-not-found","category":"timeout","detail":"a long detail, past a short slice"}}';
    expect(scanText(ascii, plan)!.value).toEqual(JSON.parse(ascii));
    const wide = '{"ok":true,"sessionId":"caf\u00e9"}';
    expect(scanText(wide, plan)).toEqual(fromBytes(wide, plan));
    expect(scanText(wide, plan)!.value).toEqual(JSON.parse(wide));
  });
});

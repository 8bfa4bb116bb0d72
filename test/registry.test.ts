import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../src/registry/load.js';
import { editDistance, nearestName } from '../src/registry/nearest.js';

describe('nearestName', () => {
  it('suggests the one candidate within two edits, ignoring case and _ vs -', () => {
    expect(nearestName('window-not-fonud', ['window-not-found', 'element-not-found'])).toBe('window-not-found');
    expect(nearestName('no_target', ['no-target', 'timeout'])).toBe('no-target');
    expect(nearestName('Timeout', ['no-target', 'timeout'])).toBe('timeout');
  });

  it('suggests nothing when none or several candidates are close', () => {
    expect(nearestName('completely-different', ['window-not-found'])).toBeUndefined();
    expect(nearestName('focus-not-se', ['focus-not-set', 'focus-not-sen'])).toBeUndefined();
  });

  it('stops counting edits past the limit', () => {
    expect(editDistance('abc', 'abc')).toBe(0);
    expect(editDistance('abc', 'abd')).toBe(1);
    expect(editDistance('abcdef', 'uvwxyz')).toBe(3);
  });
});

describe('the bundled registry', () => {
  const registry = loadRegistry();

  it('knows the codes of spec section 2, with their categories', () => {
    expect(registry.isKnownErrorCode('window-not-found')).toBe(true);
    expect([...registry.errorCodeCategories('frame-all-black')!].sort()).toEqual(['capture-blank', 'ocr-blank']);
    expect([...registry.errorCodeCategories('unknown-command')!].sort()).toEqual(['internal', 'invalid-argument']);
    expect(registry.isKnownWarningCode('minimized-window')).toBe(true);
    expect(registry.isKnownErrorCode('minimized-window')).toBe(false);
  });

  it('reads selector-matched-{n} as a family of whole numbers, 0 included', () => {
    expect(registry.isKnownErrorCode('selector-matched-0')).toBe(true);
    expect(registry.isKnownErrorCode('selector-matched-12')).toBe(true);
    expect(registry.isKnownErrorCode('selector-matched-')).toBe(false);
    expect(registry.isKnownErrorCode('selector-matched-two')).toBe(false);
    expect(registry.nearestErrorCode('selector-matchd-3')).toBe('selector-matched-3');
  });

  it('suggests the nearest known code for a typo', () => {
    expect(registry.nearestErrorCode('window-not-fonud')).toBe('window-not-found');
    expect(registry.nearestWarningCode('minimised-window')).toBe('minimized-window');
  });
});

describe('data/codes.json', () => {
  it('is a valid codes file (it is not validated at start-up)', async () => {
    const { readCodesFile } = await import('../src/registry/load.js');
    expect(readCodesFile('data/codes.json').errorCodes?.['no-target']).toEqual(['window-not-found', 'element-not-found']);
  });
});

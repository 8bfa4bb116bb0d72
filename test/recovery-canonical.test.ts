// The canonical form of a call's arguments (spec section 9, "the same call"): equal JSON values,
// and only those, have the same canonical text, read from the source so that numbers keep their
// exact decimal value.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentsKey, callKey } from '../src/recovery/call-key.js';
import { canonicalNumber, numbersExact } from '../src/framing/member-text.js';
import { canonicalArguments, canonicalOfText, canonicalOfValue, numberFree, parsedIsExact, sameArguments } from '../src/recovery/canonical.js';

/** Read from the text, as a line with a long number is. */
const args = (text: string) => canonicalOfText(text, []);

describe('canonical numbers', () => {
  it.each([
    ['1', '1.0'],
    ['1', '10e-1'],
    ['1', '0.1e1'],
    ['-0', '0'],
    ['0.0', '-0e5'],
    ['100', '1e2'],
    ['1.5E+3', '1500'],
    ['123.4500', '12345e-2'],
  ])('%s = %s', (a, b) => expect(canonicalNumber(a)).toBe(canonicalNumber(b)));

  it.each([
    ['9007199254740993', '9007199254740992'],
    ['1', '-1'],
    ['0.1', '0.10000000000000001'],
    ['1e400', '1e401'],
  ])('%s != %s', (a, b) => expect(canonicalNumber(a)).not.toBe(canonicalNumber(b)));

  it('keeps an exponent of up to 100,000 digits exact', () => {
    expect(canonicalNumber('1e123456789012345678901')).toBe('#1e123456789012345678901');
    expect(canonicalNumber('10e-123456789012345678901')).toBe('#1e-123456789012345678900');
    const long = '9'.repeat(100_000);
    expect(canonicalNumber(`10e${long}`)).toBe(`#1e1${'0'.repeat(100_000)}`);
  });

  it('compares arguments with a longer exponent by the exponent as written: the same call is the same, another spelling of its value another', () => {
    const huge = '9'.repeat(100_001);
    expect(args(`{"x":1e${huge},"y":1}`)).toBe(args(`{"y":1.0,"x":1e${huge}}`));
    expect(args(`{"x":1e${huge}}`)).not.toBe(args(`{"x":2e${huge}}`));
    expect(args(`{"x":10e${huge}}`)).not.toBe(args(`{"x":1e${huge}}`));
  });

  it('writes a value a double holds exactly as JSON.stringify writes the double', () => {
    expect(['1', '1.0', '10e-1', '-0', '1.5E+3', '0.1', '1e21', '123456789012345'].map(canonicalNumber)).toEqual(['1', '1', '1', '0', '1500', '0.1', '1e+21', '123456789012345']);
    expect(['1234567890123456', '0.10000000000000001', '1e400', '1e-400'].map(canonicalNumber)).toEqual(['#1234567890123456e0', '#10000000000000001e-17', '#1e400', '#1e-400']);
  });

  it('is the same for every way of writing a number', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: -40, max: 40 }), fc.nat({ max: 5 }), (digits, exponent, padding) => {
        // digits x 10^exponent, written plainly, then with zeros after a point, then shifted into the exponent.
        const plain = `${digits}e${exponent}`;
        const sign = digits < 0n ? '-' : '';
        const abs = (digits < 0n ? -digits : digits).toString();
        const padded = `${sign}${abs}.${'0'.repeat(padding + 1)}e${exponent}`;
        const shifted = `${sign}${abs}${'0'.repeat(padding)}e${exponent - padding}`;
        expect(canonicalNumber(padded)).toBe(canonicalNumber(plain));
        expect(canonicalNumber(shifted)).toBe(canonicalNumber(plain));
      }),
    );
  });
});

describe('canonical arguments', () => {
  it('ignores member order, and counts a duplicated name at its last occurrence', () => {
    expect(args('{"b":1,"a":{"y":[1,2],"x":null}}')).toBe(args('{"a":{"x":null,"y":[1.0,2]},"b":1}'));
    expect(args('{"a":1,"a":2}')).toBe(args('{"a":2}'));
    expect(args('{"a":1,"a":2}')).not.toBe(args('{"a":1}'));
  });

  it('compares strings after unescaping, by code units', () => {
    expect(args('{"s":"\\u0041\\n","\\u0062":1}')).toBe(args('{"s":"A\\n","b":1}'));
    expect(args('{"s":"é"}')).not.toBe(args('{"s":"e\\u0301"}'));
  });

  it('keeps arrays in order and types apart', () => {
    expect(args('{"a":[1,2]}')).not.toBe(args('{"a":[2,1]}'));
    expect(args('{"a":"1"}')).not.toBe(args('{"a":1}'));
    expect(args('{"a":true}')).not.toBe(args('{"a":"true"}'));
    expect(args('{"a":null}')).not.toBe(args('{}'));
  });

  it('reads absent or null arguments as {}', () => {
    const line = (text: string, path: string[]) => canonicalOfText(text, path);
    expect(line('{"payload":{"name":"capture"}}', ['payload', 'arguments'])).toBe('{}');
    expect(line('{"payload":{"name":"capture","arguments":null}}', ['payload', 'arguments'])).toBe('{}');
    expect(line('{"payload":{"name":"capture","arguments":{}}}', ['payload', 'arguments'])).toBe('{}');
    expect(canonicalArguments(null, undefined, [])).toBe('{}');
  });

  it('finds the value at its path, the last of a duplicated member', () => {
    const text = '{"payload":{"arguments":{"a":1},"name":"x","arguments":{"a":9007199254740993}},"ts":"t"}';
    expect(canonicalOfText(text, ['payload', 'arguments'])).toBe('{"a":#9007199254740993e0}');
    // Read from the text, not the parsed value: the number is longer than a double keeps.
    expect(canonicalArguments({ a: 9007199254740992 }, text, ['payload', 'arguments'])).toBe('{"a":#9007199254740993e0}');
    expect(canonicalArguments({ a: 1 }, '{"payload":{"arguments":{"a":1}}}', ['payload', 'arguments'])).toBe('{"a":1}');
  });

  it('walks deep nesting without recursion', () => {
    const depth = 200_000;
    const text = `${'['.repeat(depth)}1${']'.repeat(depth)}`;
    expect(canonicalOfText(text, [])).toHaveLength(2 * depth + 1);
    expect(canonicalOfValue(JSON.parse(text))).toHaveLength(2 * depth + 1);
  });

  it('falls back to the parsed value when the text does not hold it', () => {
    expect(canonicalArguments({ b: 1, a: 1.5 }, '{"x":{"a":1e400', ['x'])).toBe('{"a":1.5,"b":1}');
  });

  it('gives a 16-digit number JSON.parse keeps exact one form from its text and from its double', () => {
    // fast-check's counterexample: 16 digits, under 2^53, one character more than the 15 a double is held to.
    for (const text of ['1161744129247332', '-1161744129247332', '116174412924733.2', '0.1161744129247332']) {
      expect(canonicalOfText(`[${text}]`, [])).toBe(canonicalOfValue([JSON.parse(text)]));
    }
  });

  it('gives the source text and the parsed value the same form (numbers JSON.parse keeps exact)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        expect(canonicalOfText(text, [])).toBe(value === null ? '{}' : canonicalOfValue(JSON.parse(text)));
      }),
    );
  });

  it('gives equal values one form and unequal values two', () => {
    // Shuffled member order and re-spaced text are the same value; a changed leaf is not.
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), (object) => {
        const keys = Object.keys(object);
        const reversed = `{ ${keys.reverse().map((key) => `${JSON.stringify(key)} : ${JSON.stringify(object[key])}`).join(' , ')} }`;
        expect(args(reversed)).toBe(args(JSON.stringify(object)));
        const changed = { ...object, [keys[0]!]: [object[keys[0]!] ?? null] };
        expect(args(JSON.stringify(changed))).not.toBe(args(JSON.stringify(object)));
      }),
    );
  });
});

describe('a value inside a longer text', () => {
  it('is read from where it starts', () => {
    const text = 'log prefix {"params":{"arguments":{"b":12345678901234567,"a":1}}} trailing';
    expect(canonicalOfText(text, ['params', 'arguments'], 11)).toBe('{"a":1,"b":#12345678901234567e0}');
    expect(canonicalArguments({ a: 1, b: 12345678901234568 }, text, ['params', 'arguments'], 11)).toBe('{"a":1,"b":#12345678901234567e0}');
  });
});

describe('whether the parsed arguments are exact', () => {
  const line = (args: string) => `{"name":"invoke","arguments":${args}}`;

  it('says no for a number of more than 15 digits or with an exponent', () => {
    expect(parsedIsExact(line('{"a":1234567890123456}'))).toBe(false);
    expect(parsedIsExact(line('{"a":[0.1234567890123456]}'))).toBe(false);
    expect(parsedIsExact(line('{"a":1e5}'))).toBe(false);
    expect(parsedIsExact(line('{"a":-2E-3}'))).toBe(false);
    expect(parsedIsExact(line('{"a":123456789012345,"b":-0.5}'))).toBe(true);
  });

  it('skips strings: digits and letters in them are no numbers', () => {
    expect(parsedIsExact(line('{"handle":"0x1E4","id":"12345678901234567890","q":"a\\"1e5"}'))).toBe(true);
    // An escaped backslash ends before the quote: the string ends there, and the number after it counts.
    expect(parsedIsExact(line('{"p":"C:\\\\","n":1e5}'))).toBe(false);
  });

  it('is never wrong when it says yes: the parsed value gives the text\'s form', () => {
    const number = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: -30, max: 30 }), fc.boolean()).map(([digits, exponent, written]) => {
      const abs = (digits < 0n ? -digits : digits).toString();
      const sign = digits < 0n ? '-' : '';
      if (written) return `${sign}${abs}e${exponent}`;
      const point = Math.max(0, Math.min(abs.length - 1, -exponent));
      return point === 0 ? `${sign}${abs}` : `${sign}${abs.slice(0, abs.length - point)}.${abs.slice(abs.length - point)}`;
    });
    const leaf = fc.oneof(number, fc.string({ maxLength: 6 }).map((t) => JSON.stringify(t)), fc.constantFrom('true', 'null', '"0x1E4"', '"9007199254740993"'));
    const args = fc.array(fc.tuple(fc.string({ maxLength: 3 }), leaf), { maxLength: 5 }).map((members) => `{${members.map(([name, value]) => `${JSON.stringify(name)}:${value}`).join(',')}}`);
    fc.assert(
      fc.property(args, (text) => {
        const whole = line(text);
        if (parsedIsExact(whole)) expect(canonicalOfValue(JSON.parse(text))).toBe(canonicalOfText(whole, ['arguments']));
        // The look a JSON-RPC request's line gets once, for its id and its arguments alike.
        if (numbersExact(whole, 0)) expect(canonicalOfValue(JSON.parse(text))).toBe(canonicalOfText(whole, ['arguments']));
        if (numberFree(JSON.parse(text))) expect(canonicalOfValue(JSON.parse(text))).toBe(canonicalOfText(whole, ['arguments']));
      }),
    );
  });

  it('a value without numbers is exact as parsed, within its first 64 values', () => {
    expect(numberFree({ window: 'Untitled - Notepad', by: 'name', value: 'Save', all: [true, null, { deep: ['x'] }] })).toBe(true);
    expect(numberFree(undefined)).toBe(true);
    expect(numberFree({ timeout: 0 })).toBe(false);
    expect(numberFree({ a: [['x', [-0]]] })).toBe(false);
    expect(numberFree(Object.fromEntries(Array.from({ length: 63 }, (_, i) => [`k${i}`, 'v'])))).toBe(true);
    expect(numberFree(Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`k${i}`, 'v'])))).toBe(false);
  });
});

describe('the key of a call', () => {
  it('is 128 bits, the same for the same text and another for any other', () => {
    expect(callKey('{"a":1}')).toHaveLength(8);
    expect(callKey('{"a":1}')).toBe(callKey(`{"a":${'1'}}`));
    const keys = new Set<string>();
    const texts = new Set<string>();
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: 'binary' }), (text) => {
        texts.add(text);
        keys.add(callKey(text));
        // Texts that differ only in zeros at the end (the tail's padding) differ.
        expect(callKey(`${text}\0`)).not.toBe(callKey(text));
      }),
      { numRuns: 2000 },
    );
    expect(keys.size).toBe(texts.size);
  });
});

describe('the key of parsed arguments', () => {
  it('is the key of their canonical text, made without writing it', () => {
    const strings = fc.string({ maxLength: 6, unit: fc.constantFrom('a', 'Z', '"', '\\', '\n', '\u0001', '\u00e9', '\ud83d', '\ude00', '\u2028') });
    const value = fc.letrec((tie) => ({
      leaf: fc.oneof(strings, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.boolean(), fc.constant(null)),
      node: fc.oneof({ depthSize: 'small' }, tie('leaf'), fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(strings, tie('node'), { maxKeys: 4 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(argumentsKey(v)).toBe(callKey(canonicalArguments(v, undefined, [])));
      }),
      { numRuns: 2000 },
    );
  });

  it('is the same past the depth its walk takes', () => {
    let deep: unknown = { z: 1, a: 'x' };
    for (let k = 0; k < 300; k++) deep = k % 2 === 0 ? [deep, k] : { b: deep, a: k };
    expect(argumentsKey(deep)).toBe(callKey(canonicalOfValue(deep)));
    expect(argumentsKey(null)).toBe(callKey('{}'));
  });
});

describe('comparing parsed arguments', () => {
  /** The same value with every object's members in reverse order. */
  const reordered = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(reordered);
    if (typeof v !== 'object' || v === null) return v;
    return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
  };

  it('says equal exactly when the canonical forms are', () => {
    const leaf = fc.oneof(fc.constantFrom(0, -0, 1, 1.5, -2, 'a', '', 'A', true, false, null), fc.integer({ min: -3, max: 3 }));
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'c'), tie('node'), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(value, value, fc.boolean(), (a, other, same) => {
        const b = same ? JSON.parse(JSON.stringify(reordered(a))) : other;
        expect(sameArguments(a, b)).toBe(canonicalArguments(a, undefined, []) === canonicalArguments(b, undefined, []));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads absent and null as {}, and leaves values past its depth to the canonical forms', () => {
    expect(sameArguments(undefined, {})).toBe(true);
    expect(sameArguments(null, [])).toBe(false);
    let deep: unknown = 1;
    for (let k = 0; k < 300; k++) deep = [deep];
    expect(sameArguments(deep, JSON.parse(JSON.stringify(deep)))).toBeUndefined();
  });
});

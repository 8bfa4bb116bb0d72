// Differential test of the schema verdict: an independent JSON Schema implementation
// (@cfworker/json-schema, draft 2020-12) and the project's own checker (ajv, compiled at run time or
// generated at build time) must agree on valid/invalid for every one of >= 20,000 generated and
// mutated envelopes against the bundled schema. The project's verdict is "invalid iff
// checkEnvelopeWith reports a finding of rule `schema`", so the test covers the whole path a record
// takes (validator plus the translation of ajv's errors into findings, which must never drop one).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Validator } from '@cfworker/json-schema';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { checkEnvelopeWith } from '../src/checks/check-envelope.js';
import { ajvOptions, compileEnvelopeSchema, errorsUnlisted, holdsMoreThan, maxListedErrors, maxValuesListedAtRunTime } from '../src/checks/schema-load.js';
import { boundedList, countOnly, sharedDefaults, untrackedProps } from '../src/checks/validator-edits.js';
import { createCheckContext } from '../src/run.js';

const schema = JSON.parse(readFileSync(new URL('../data/agent-tool-result.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;
const categories = ((schema['$defs'] as any).error.properties.category.enum as string[]).slice();

// ---------------------------------------------------------------------------------------------
// A small seeded PRNG (mulberry32): the same 20,000+ cases on every run and every machine.

class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}

// ---------------------------------------------------------------------------------------------
// Realistic values

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const words = ['capture', 'window', 'Save', 'button', 'é漢字😀', '', 'shots/0001.png', 'a'.repeat(300), '<redacted base64>', 'x y', '\u0000', 'null', 'true', '{"ok":true}'];
const codes = ['element-not-found', 'window-not-found', 'wait-timeout', 'selector-matched-3', 'window-not-fonud', 'Bad_Code', 'uia-faulted', 'capture-blank', '', 'x'];
const warningCodes = ['low-contrast', 'slow-uia', 'partial-tree', 'Deprecated_Flag', ''];
const categoryTypos = ['Timeout', 'TIMEOUT', 'time-out', 'timeout ', ' timeout', 'no_target', 'notarget', 'no-targets', 'stale_element', 'ambiguous-selectors', 'capture_blank', 'internal\u0000', '\u0456nternal', 'focus\n', '', 'elevated', 'foregound', 'unknown', 'fatal', 'not-a-category', 'Internal'];
const unknownKeys = ['extra', 'OK', 'Ok', 'ok ', ' ok', 'errors', 'results', 'warning', 'session_id', 'sessionID', '', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isError', 'content', 'message', 'stack', 'retryable', '$ref', 'constructor', '__proto__'];
/** Keys that must be made own properties through JSON.parse (an assignment would not make `__proto__` one). */
const viaJson = new Set(['__proto__', 'constructor']);

function primitive(rng: Rng): Json {
  switch (rng.int(6)) {
    case 0:
      return null;
    case 1:
      return rng.chance(0.5);
    case 2:
      return rng.pick([0, -1, 1.5, 1e308, -0, 42, 2 ** 53]);
    default:
      return rng.pick(words);
  }
}

function jsonValue(rng: Rng, depth: number): Json {
  if (depth <= 0 || rng.chance(0.45)) return primitive(rng);
  if (rng.chance(0.5)) return Array.from({ length: rng.int(4) }, () => jsonValue(rng, depth - 1));
  return smallObject(rng, depth - 1);
}

function smallObject(rng: Rng, depth = 2): Obj {
  const object: Obj = {};
  const n = rng.int(4);
  for (let i = 0; i < n; i++) object[rng.pick(['artifact', 'tree', 'name', 'hwnd', 'bounds', 'matches', 'png', 'title', 'x'])] = jsonValue(rng, depth);
  return object;
}

/** A value nested `depth` levels deep, built as text so that no recursion is needed. */
function deepValue(rng: Rng, depth: number, kind: 'object' | 'array'): Json {
  const leaf = JSON.stringify(primitive(rng));
  return JSON.parse(kind === 'object' ? `${'{"c":'.repeat(depth)}${leaf}${'}'.repeat(depth)}` : `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`) as Json;
}

function ordered(rng: Rng, members: [string, Json][]): Obj {
  const object: Obj = {};
  for (const [key, value] of rng.shuffle(members)) object[key] = value;
  return object;
}

function warnings(rng: Rng): Json[] {
  return Array.from({ length: rng.int(4) }, () => ordered(rng, [
    ['code', rng.pick(warningCodes)],
    ['detail', rng.pick(words)],
  ]));
}

function errorObject(rng: Rng): Obj {
  const members: [string, Json][] = [
    ['code', rng.pick(codes)],
    ['category', rng.pick(categories)],
    ['detail', rng.pick(words)],
  ];
  const roll = rng.int(3);
  if (roll > 0) members.push(['lastObservation', roll === 1 ? smallObject(rng) : null]);
  const roll2 = rng.int(3);
  if (roll2 > 0) members.push(['partialResult', roll2 === 1 ? smallObject(rng) : null]);
  return ordered(rng, members);
}

function sessionMember(rng: Rng, members: [string, Json][]): void {
  const roll = rng.int(5);
  if (roll < 2) members.push(['sessionId', rng.pick(['5f19c9c01a3f', 's-2', ''])]);
  else if (roll === 2) members.push(['sessionId', null]);
}

function success(rng: Rng): Obj {
  const members: [string, Json][] = [['ok', true]];
  const roll = rng.int(7);
  if (roll < 5) members.push(['result', smallObject(rng)]);
  else if (roll === 5) members.push(['result', null]);
  if (rng.chance(0.35)) members.push(['warnings', warnings(rng)]);
  sessionMember(rng, members);
  return ordered(rng, members);
}

function failure(rng: Rng): Obj {
  const members: [string, Json][] = [
    ['ok', false],
    ['error', errorObject(rng)],
  ];
  const roll = rng.int(8);
  if (roll < 2) members.push(['result', null]);
  // Schema-valid although the contract forbids it (spec section 1, invariant 3).
  else if (roll === 2) members.push(['result', smallObject(rng)]);
  if (rng.chance(0.3)) members.push(['warnings', warnings(rng)]);
  sessionMember(rng, members);
  return ordered(rng, members);
}

// ---------------------------------------------------------------------------------------------
// Mutations

/** Adds `key: value` as an own member of the object, through JSON.parse (first or last member). */
function withMemberViaJson(rng: Rng, object: Obj, key: string, value: Json): Obj {
  const text = JSON.stringify(object);
  const member = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  const spliced = text === '{}' ? `{${member}}` : rng.chance(0.5) ? `{${member},${text.slice(1)}` : `${text.slice(0, -1)},${member}}`;
  const parsed = JSON.parse(spliced) as Obj;
  if (!Object.hasOwn(parsed, key)) throw new Error(`test bug: ${key} is not an own member`);
  return parsed;
}

function withMember(rng: Rng, object: Obj, key: string, value: Json): Obj {
  if (viaJson.has(key)) return withMemberViaJson(rng, object, key, value);
  object[key] = value;
  return object;
}

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

function wrongType(rng: Rng, member: string): Json {
  switch (member) {
    case 'ok':
      return rng.pick<Json>(['true', 'false', 1, 0, null, [], {}, [true]]);
    case 'result':
      return rng.pick<Json>([[], [{}], 'x', '', 1, 0, true, false]);
    case 'warnings':
      return rng.pick<Json>([{}, 'x', null, 1, true, [1], [null], [[]], ['low-contrast'], [{ code: 1, detail: 'x' }], [{ code: 'a' }], [{ detail: 'x' }], [{ code: 'a', detail: null }], [{ code: 'a', detail: 'd', extra: 1 }], [{}]]);
    case 'sessionId':
      return rng.pick<Json>([1, 0, true, false, {}, [], ['s']]);
    case 'error':
      return rng.pick<Json>([null, [], [errorObject(rng)], 'string', '', 0, 1, true, false]);
    case 'code':
    case 'detail':
      return rng.pick<Json>([1, 0, null, [], {}, true, ['x']]);
    case 'category':
      return rng.pick<Json>([1, null, [], {}, true, ['timeout'], { timeout: true }]);
    case 'lastObservation':
    case 'partialResult':
      return rng.pick<Json>([[], [{}], 'x', '', 1, 0, true, false]);
    default:
      return primitive(rng);
  }
}

function mutate(rng: Rng, value: Json): Json {
  if (!isObj(value)) return value;
  let envelope = value;
  const error = envelope['error'];
  switch (rng.int(16)) {
    case 0:
      delete envelope['ok'];
      break;
    case 1:
      delete envelope['error'];
      break;
    case 2:
      if (isObj(error)) delete error[rng.pick(['code', 'category', 'detail', 'lastObservation', 'partialResult'])];
      break;
    case 3:
      if (typeof envelope['ok'] === 'boolean') envelope['ok'] = !envelope['ok'];
      break;
    case 4:
      envelope['error'] = wrongType(rng, 'error');
      break;
    case 5:
      envelope = withMember(rng, envelope, rng.pick(unknownKeys), jsonValue(rng, 2));
      break;
    case 6: {
      const target = isObj(error) ? error : errorObject(rng);
      envelope['error'] = withMember(rng, target, rng.pick([...unknownKeys, 'lastobservation', 'partial_result', 'Code']), jsonValue(rng, 2));
      break;
    }
    case 7: {
      const member = rng.pick(['ok', 'result', 'warnings', 'sessionId', 'error']);
      envelope[member] = wrongType(rng, member);
      break;
    }
    case 8: {
      const target = isObj(error) ? error : (envelope['error'] = errorObject(rng));
      const member = rng.pick(['code', 'category', 'detail', 'lastObservation', 'partialResult']);
      target[member] = wrongType(rng, member);
      break;
    }
    case 9: {
      const target = isObj(error) ? error : (envelope['error'] = errorObject(rng));
      target['category'] = rng.pick(categoryTypos);
      break;
    }
    case 10: {
      // Deep nesting where the schema only looks at the type (objects: valid; arrays: invalid), or under an unknown member.
      const depth = rng.pick([16, 64, 500, 2000]);
      const where = rng.int(4);
      if (where === 0) envelope['result'] = deepValue(rng, depth, rng.chance(0.7) ? 'object' : 'array');
      else if (where === 1) envelope = withMember(rng, envelope, rng.pick(unknownKeys), deepValue(rng, depth, 'object'));
      else {
        const target = isObj(error) ? error : (envelope['error'] = errorObject(rng));
        target[where === 2 ? 'lastObservation' : 'partialResult'] = deepValue(rng, depth, rng.chance(0.7) ? 'object' : 'array');
      }
      break;
    }
    case 11:
      // ok true with an error (object, empty object or null): the `not` conditional, or the type.
      envelope['ok'] = true;
      envelope['error'] = rng.pick<Json>([errorObject(rng), {}, null]);
      break;
    case 12:
      // ok false without an error, maybe with a result instead.
      envelope['ok'] = false;
      delete envelope['error'];
      if (rng.chance(0.5)) envelope['result'] = smallObject(rng);
      break;
    case 13: {
      const list = Array.isArray(envelope['warnings']) ? envelope['warnings'] : (envelope['warnings'] = warnings(rng));
      if (list.length === 0) list.push({ code: 'low-contrast', detail: 'd' });
      const index = rng.int(list.length);
      const item = list[index];
      if (isObj(item) && rng.chance(0.5)) list[index] = withMember(rng, item, rng.pick(['extra', 'category', '__proto__', 'constructor']), 'x');
      else if (isObj(item)) delete item[rng.pick(['code', 'detail'])];
      break;
    }
    case 14:
      // Valid-preserving edits: optional members dropped or set to null.
      if (rng.chance(0.5)) delete envelope[rng.pick(['result', 'warnings', 'sessionId'])];
      else envelope[rng.pick(['result', 'sessionId'])] = null;
      break;
    default:
      // __proto__ at the top with an envelope-like value: an own member, never the prototype.
      envelope = withMemberViaJson(rng, envelope, '__proto__', rng.pick<Json>([{ ok: true }, {}, null, errorObject(rng), { error: null }]));
      if (rng.chance(0.5)) delete envelope['ok'];
      break;
  }
  return envelope;
}

function nonObject(rng: Rng): Json {
  return rng.pick<Json>([null, 0, 1, -1.5, '', 'x', '{"ok":true}', true, false, [], [success(rng)], [failure(rng)], [[]]]);
}

/** Cases that must be there whatever the generator does. */
const handPicked: Json[] = [
  { ok: true },
  { ok: false },
  { ok: true, error: null },
  { ok: false, error: null },
  { ok: true, error: {} },
  { ok: false, error: {} },
  { ok: false, error: { code: 'c', category: 'timeout', detail: 'd' }, result: { a: 1 } },
  { ok: true, error: { code: 'c', category: 'timeout', detail: 'd' } },
  { ok: false, error: { code: 'c', category: 'Timeout', detail: 'd' } },
  { error: { code: 'c', category: 'timeout', detail: 'd' } },
  {},
  JSON.parse('{"ok":true,"__proto__":{}}') as Json,
  JSON.parse('{"__proto__":{"ok":true}}') as Json,
  JSON.parse('{"ok":true,"constructor":{}}') as Json,
  JSON.parse('{"ok":false,"error":{"__proto__":{"code":"c","category":"timeout","detail":"d"}}}') as Json,
  JSON.parse('{"ok":false,"error":{"code":"c","category":"timeout","detail":"d","__proto__":null}}') as Json,
  JSON.parse('{"ok":true,"warnings":[{"code":"a","detail":"b","constructor":1}]}') as Json,
  null,
  [],
  'ok',
];

function generate(count: number, seed: number): Json[] {
  const rng = new Rng(seed);
  const cases: Json[] = [...handPicked];
  while (cases.length < count) {
    const roll = rng.next();
    if (roll < 0.03) {
      cases.push(nonObject(rng));
      continue;
    }
    let envelope: Json = rng.chance(0.5) ? success(rng) : failure(rng);
    // About half stay as generated; the rest get one to three mutations.
    if (rng.chance(0.55)) {
      const n = 1 + (rng.chance(0.3) ? rng.int(3) : 0);
      for (let i = 0; i < n; i++) envelope = mutate(rng, envelope);
    }
    cases.push(envelope);
  }
  return cases;
}

/**
 * Envelopes with about `n` schema errors each, in one place or spread over several (members, warnings,
 * the ok/error conditionals), so that the generated validator's bounded list is cut inside each.
 */
function crowded(rng: Rng, n: number): Json[] {
  const extra: Obj = Object.fromEntries(Array.from({ length: n }, (_, i) => [`x${i}`, i]));
  const warnings: Json[] = Array.from({ length: n }, (_, i) => (i % 3 === 0 ? 1 : { code: i, detail: 'd' }));
  return [
    { ...success(rng), ...extra },
    { ok: true, result: {}, warnings },
    { ...failure(rng), warnings, ...extra },
    { ok: true, result: {}, error: { code: 'c', category: 'timeout', detail: 'd' }, warnings },
    { ok: false, warnings, ...extra },
    { warnings },
    mutate(rng, { ...failure(rng), ...extra }),
    mutate(rng, { ...success(rng), warnings }),
  ];
}

// ---------------------------------------------------------------------------------------------

describe('schema verdict: @cfworker/json-schema vs the project checker (ajv)', () => {
  it('agrees on >= 20,000 generated and mutated envelopes', { timeout: 600_000 }, () => {
    const context = createCheckContext();
    const validator = new Validator(schema as any, '2020-12', false);
    const cases = generate(22_000, 42);

    let valid = 0;
    let invalid = 0;
    let disagreements = 0;
    const first: string[] = [];
    for (const value of cases) {
      const reference = validator.validate(value).valid;
      const findings = checkEnvelopeWith(context, value);
      // An object with no envelope member is one not-an-envelope finding in place of its schema
      // findings (spec section 8.4): the schema refuses every such object (it requires ok).
      const project = !findings.some((f) => f.rule === 'schema' || f.rule === 'not-an-envelope');
      if (reference) valid++;
      else invalid++;
      if (reference !== project) {
        disagreements++;
        if (first.length < 5) {
          first.push(
            `envelope: ${JSON.stringify(value)}\n  @cfworker/json-schema: ${reference ? 'valid' : 'invalid'}\n  project (ajv): ${project ? 'valid' : 'invalid'}` +
              `\n  project schema findings: ${JSON.stringify(findings.filter((f) => f.rule === 'schema').map((f) => `${f.pointer} ${f.keyword}: ${f.message}`))}`,
          );
        }
      }
    }

    expect(cases.length).toBeGreaterThanOrEqual(20_000);
    expect(valid, 'schema-valid cases').toBeGreaterThanOrEqual(5_000);
    expect(invalid, 'schema-invalid cases').toBeGreaterThanOrEqual(5_000);
    expect(disagreements, `${disagreements} disagreement(s) of ${cases.length}; the first ${first.length}:\n${first.join('\n')}`).toBe(0);
  });

  it('the validator generated at build time reports what ajv compiled at run time does, error for error', () => {
    // The build edits ajv's generated code (scripts/build-validator.mjs): it drops the error objects
    // ajv makes only to count failures inside `if` and `not` and the notes of evaluated properties
    // nothing reads, and it stops the list of errors at maxListedErrors while counting them all.
    // None may change a verdict, an error or the count.
    // `schema` is 2026-06's; 2026-07's validator is generated and edited by the same code.
    const generated = createRequire(import.meta.url)('../dist/generated/envelope-validator-2026-06.cjs') as ((value: unknown) => boolean) & { errors?: unknown[] | null; errorCount?: number };
    for (const version of ['2026-06', '2026-07']) {
      const code = readFileSync(new URL(`../dist/generated/envelope-validator-${version}.cjs`, import.meta.url), 'utf8');
      expect(code.match(/const err\d+ = \{\};/g) ?? []).toEqual([]);
      expect(code.match(/\bprops\d+\b/g) ?? []).toEqual([]);
    }
    const compiled = new Ajv2020(ajvOptions).compile(schema);
    const rng = new Rng(11);
    const crowd = [maxListedErrors - 2, maxListedErrors - 1, maxListedErrors, maxListedErrors + 1, 2500].flatMap((n) => crowded(rng, n));
    let differences = 0;
    let cut = 0;
    const first: string[] = [];
    for (const value of [...generate(22_000, 7), ...crowd]) {
      const [verdict, expected] = [generated(value), compiled(value)];
      const all = compiled.errors ?? [];
      if (all.length > maxListedErrors) cut++;
      const [errors, expectedErrors] = [JSON.stringify(generated.errors), JSON.stringify(compiled.errors && all.slice(0, maxListedErrors))];
      if (verdict === expected && errors === expectedErrors && generated.errorCount === all.length) continue;
      if (++differences <= 3) first.push(`envelope: ${JSON.stringify(value).slice(0, 300)}\n  generated: ${verdict} ${generated.errorCount} ${errors.slice(0, 300)}\n  ajv: ${expected} ${all.length} ${expectedErrors.slice(0, 300)}`);
    }
    expect(differences, first.join('\n')).toBe(0);
    // The crowded envelopes did reach past the list: the cut itself was compared.
    expect(cut).toBeGreaterThanOrEqual(15);
  });

  it("a schema compiled at run time gives ajv's verdicts and errors, and past 20,000 values its first error alone", () => {
    // compileEnvelopeSchema validates with ajv's allErrors off, then again with it on for a record it
    // rejects that is small enough: the two together must be ajv's allErrors validator, whose list
    // has no end, as long as a record holds at most maxValuesListedAtRunTime values.
    const runtime = compileEnvelopeSchema(schema, 'inline').validate;
    const compiled = new Ajv2020(ajvOptions).compile(schema);
    const firstOnly = new Ajv2020({ ...ajvOptions, allErrors: false }).compile(schema);
    const rng = new Rng(5);
    let differences = 0;
    let rejected = 0;
    const first: string[] = [];
    for (const value of [...generate(6_000, 3), ...[1, 100, 2500].flatMap((n) => crowded(rng, n))]) {
      const [verdict, expected] = [runtime(value), compiled(value)];
      if (!expected) rejected++;
      const [errors, expectedErrors] = [JSON.stringify(runtime.errors), JSON.stringify(compiled.errors)];
      if (verdict === expected && errors === expectedErrors && !errorsUnlisted(runtime)) continue;
      if (++differences <= 3) first.push(`envelope: ${JSON.stringify(value).slice(0, 300)}\n  run time: ${verdict} ${errors.slice(0, 300)}\n  ajv: ${expected} ${expectedErrors.slice(0, 300)}`);
    }
    expect(differences, first.join('\n')).toBe(0);
    expect(rejected).toBeGreaterThan(1_000);
    // Past the bound: rejected, with the error ajv finds first, and marked as not listing the rest.
    const wide = { ok: true, result: {}, warnings: Array.from({ length: maxValuesListedAtRunTime }, (_, i) => (i % 2 ? 1 : { code: 'x', detail: 'd' })) };
    expect(runtime(wide)).toBe(false);
    expect(firstOnly(wide)).toBe(false);
    expect(runtime.errors).toEqual(firstOnly.errors);
    expect(errorsUnlisted(runtime)).toBe(true);
    // The next record is judged afresh.
    expect(runtime({ ok: true, result: {} })).toBe(true);
    expect(errorsUnlisted(runtime)).toBe(false);
  });

  it('holdsMoreThan counts every value at any depth, and stops at the limit', () => {
    expect(holdsMoreThan(1, 0)).toBe(true);
    expect(holdsMoreThan(1, 1)).toBe(false);
    // {a: [1, 2], b: {c: null}}: the object, the array, 1, 2, the inner object, null.
    expect(holdsMoreThan({ a: [1, 2], b: { c: null } }, 6)).toBe(false);
    expect(holdsMoreThan({ a: [1, 2], b: { c: null } }, 5)).toBe(true);
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(holdsMoreThan(deep, 100_001)).toBe(false);
    expect(holdsMoreThan(deep, 100_000)).toBe(true);
    expect(holdsMoreThan(new Array(5_000_000).fill(0), 20_000)).toBe(true);
  });

  it('the bounded list holds where a subschema that cuts the list back starts past the limit', () => {
    // The bundled schema checks its conditionals before the members that can fail a thousand times,
    // so there the list is never cut back past the limit. Items with conditionals are: each item
    // starts an `if`, a `not` and an `anyOf` with the list as long as the items before it made it.
    const itemSchema = {
      type: 'array',
      items: {
        type: ['object', 'integer'],
        if: { type: 'object', required: ['a'] },
        then: { required: ['b'], not: { required: ['c'] } },
        anyOf: [{ type: 'integer', minimum: 0 }, { type: 'object' }],
      },
    };
    const limit = 7;
    const ajv = new Ajv2020({ ...ajvOptions, code: { source: true } });
    // CommonJS: the function is module.exports, and its `default` too, which is what the types know.
    const edited = boundedList(countOnly(standalone.default(ajv, ajv.compile(itemSchema))), limit);
    const module = { exports: {} as ((value: unknown) => boolean) & { errors?: unknown[] | null; errorCount?: number } };
    new Function('module', 'exports', edited)(module, module.exports);
    const bounded = module.exports;
    const compiled = new Ajv2020(ajvOptions).compile(itemSchema);
    const rng = new Rng(5);
    const item = (): Json => [-1, 3, { a: 1 }, { a: 1, b: 2 }, { a: 1, b: 2, c: 3 }, { b: 1 }, 'x'][rng.int(7)]!;
    let differences = 0;
    let pastLimit = 0;
    const first: string[] = [];
    for (let k = 0; k < 2000; k++) {
      const value = Array.from({ length: rng.int(12) }, item);
      const [verdict, expected] = [bounded(value), compiled(value)];
      const all = compiled.errors ?? [];
      if (all.length > limit) pastLimit++;
      const [errors, expectedErrors] = [JSON.stringify(bounded.errors), JSON.stringify(compiled.errors && all.slice(0, limit))];
      if (verdict === expected && errors === expectedErrors && bounded.errorCount === all.length) continue;
      if (++differences <= 3) first.push(`value: ${JSON.stringify(value)}\n  bounded: ${verdict} ${bounded.errorCount} ${errors}\n  ajv: ${expected} ${all.length} ${expectedErrors}`);
    }
    expect(differences, first.join('\n')).toBe(0);
    expect(pastLimit).toBeGreaterThan(200);
    // Code that does not read as the edit expects is refused, not edited in part.
    expect(() => boundedList('module.exports = validate10;', limit)).toThrow('no longer reads as boundedList() expects');
  });

  it('gives a validator called with the value alone options made once, and refuses code that reads dynamicAnchors', () => {
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'integer' }, b: { type: 'array', items: { type: 'string' } } } };
    const ajv = new Ajv2020({ ...ajvOptions, code: { source: true } });
    const code = standalone.default(ajv, ajv.compile(schema));
    expect(code).toMatch(/dynamicAnchors=\{\}\}=\{\}\)/);
    const edited = sharedDefaults(code);
    expect(edited).not.toMatch(/dynamicAnchors|=\{\}\)/);
    const module = { exports: {} as ((value: unknown, options?: { instancePath?: string }) => boolean) & { errors?: unknown[] | null } };
    new Function('module', 'exports', edited)(module, module.exports);
    const compiled = new Ajv2020(ajvOptions).compile(schema);
    for (const value of [{ a: 1 }, {}, { a: 'x', b: [1, 'y', 2] }, [], null, { a: 1, b: 'z' }]) {
      expect([module.exports(value), module.exports.errors]).toEqual([compiled(value), compiled.errors]);
      // Options a caller gives still count: the errors' places start where it says.
      expect([module.exports(value, { instancePath: '/x' }), module.exports.errors]).toEqual([compiled(value, { instancePath: '/x' } as never), compiled.errors]);
    }
    // A validator that hands dynamicAnchors on (a $ref ajv does not inline) is refused, not edited in part.
    const recursive = { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } }, $ref: '#/$defs/node' };
    expect(standalone.default(ajv, ajv.compile(recursive))).toMatch(/dynamicAnchors\}\)/);
    expect(() => sharedDefaults(standalone.default(ajv, ajv.compile(recursive)))).toThrow('no longer reads as sharedDefaults() expects');
  });

  it('drops the notes of evaluated properties only where nothing reads them', () => {
    // ajv notes which properties an if/then and anyOf branches evaluated, for unevaluatedProperties.
    const noted = { type: 'object', if: { required: ['a'] }, then: { properties: { 'b-c': { type: 'integer' } } }, anyOf: [{ required: ['x'] }, { properties: { y: {} } }], additionalProperties: true };
    const ajv = new Ajv2020({ ...ajvOptions, code: { source: true } });
    const code = standalone.default(ajv, ajv.compile(noted));
    expect(code).toMatch(/props\d+ = \{\}/);
    const edited = untrackedProps(code);
    expect(edited).not.toMatch(/\bprops\d+\b/);
    const module = { exports: {} as ((value: unknown) => boolean) & { errors?: unknown[] | null } };
    new Function('module', 'exports', edited)(module, module.exports);
    const compiled = new Ajv2020(ajvOptions).compile(noted);
    for (const value of [{}, { a: 1 }, { a: 1, 'b-c': 2 }, { a: 1, 'b-c': 'x' }, { x: 1 }, { y: 1 }, { a: 1, x: 1, 'b-c': 1.5 }, 7]) {
      expect([module.exports(value), module.exports.errors]).toEqual([compiled(value), compiled.errors]);
    }
    // Where unevaluatedProperties reads the notes, the code is refused, not edited in part.
    const reading = { ...noted, additionalProperties: undefined, unevaluatedProperties: false };
    expect(() => untrackedProps(standalone.default(ajv, ajv.compile(reading)))).toThrow('no longer reads as untrackedProps() expects');
  });
});

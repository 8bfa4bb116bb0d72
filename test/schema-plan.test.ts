// What the scanner builds of a record, derived from the schema in use (src/framing/schema-plan.ts;
// issue 36 item 2): a place is stood in by its type only where no keyword of the schema can look
// inside it, and a --schema run writes the report the JSON.parse path writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { frameBuffer } from '../src/framing/index.js';
import { envelopePlanSpec, envelopePlanSpecFor, scanPlanFor } from '../src/checks/record-plan.js';
import { isTypeOnly, wholePlan, type PlanSpec } from '../src/framing/scan.js';
import { joinPlans, schemaPlanSpec } from '../src/framing/schema-plan.js';
import { createCheckContext } from '../src/run.js';
import type { Framed } from '../src/types.js';
import { builtWhole } from '../src/unwrap/built-whole.js';
import { repoRoot, runCli, tempFiles } from './helpers/cli.js';

/** A node of an object no keyword reads inside of beyond its named members, and no array keyword. */
const node = (members: Record<string, PlanSpec>, more: { rest?: PlanSpec; items?: PlanSpec } = {}): PlanSpec => {
  const rest = more.rest ?? 'type';
  const items = more.items ?? 'type';
  return { ...(Object.keys(members).length > 0 && { members }), ...(rest !== 'whole' && { rest }), ...(items !== 'whole' && { items }) };
};
/** An object built member by member (every name there), no member read inside. */
const names = node({});

const cases: [string, unknown, PlanSpec][] = [
  // Nothing reads inside: the place is its type.
  ['true', true, 'type'],
  ['false', false, 'type'],
  ['{}', {}, 'type'],
  ['type alone', { type: 'object' }, 'type'],
  ['type and every annotation', { type: ['object', 'null'], title: 't', description: 'd', examples: [{ a: 1 }], default: {}, deprecated: true, readOnly: true, writeOnly: false, $comment: 'c' }, 'type'],
  ['keywords of strings and numbers', { type: ['string', 'object', 'number'], minLength: 1, maxLength: 9, pattern: '^a', format: 'uuid', minimum: 0, maximum: 9, exclusiveMinimum: -1, exclusiveMaximum: 10, multipleOf: 1 }, 'type'],
  ['enum and const of scalars', { enum: ['a', 1, null, true], const: 'a' }, 'type'],
  // The members the properties name; the rest stand in unless a keyword reaches them.
  ['type-only members', { type: 'object', properties: { ok: { type: 'boolean' }, result: { type: ['object', 'null'], description: 'any' }, list: { type: 'array' } } }, node({ ok: 'type', result: 'type', list: 'type' })],
  ['a member read inside', { properties: { result: { properties: { tree: { type: 'object' }, n: { minimum: 0 } }, required: ['n'] } } }, node({ result: node({ tree: 'type', n: 'type' }) })],
  ['enum with a container', { properties: { a: { enum: ['x', { b: 1 }] } } }, node({ a: 'whole' })],
  ['const of a container', { properties: { a: { const: [] } } }, node({ a: 'whole' })],
  // Keywords that read an object's names or count its members: built member by member.
  ['required', { properties: { a: { required: ['k'] } } }, node({ a: names })],
  ['minProperties and maxProperties', { properties: { a: { minProperties: 1 }, b: { maxProperties: 3 } } }, node({ a: names, b: names })],
  ['propertyNames', { properties: { a: { propertyNames: { maxLength: 3 } } } }, node({ a: names })],
  ['dependentRequired', { properties: { a: { dependentRequired: { x: ['y'] } } } }, node({ a: names })],
  // Keywords that apply subschemas to members not named: the rest, and named members they reach.
  ['additionalProperties', { properties: { a: { type: 'object' } }, additionalProperties: { required: ['x'] } }, node({ a: 'type' }, { rest: names })],
  ['additionalProperties false', { properties: { a: { type: 'object' } }, additionalProperties: false }, node({ a: 'type' })],
  ['additionalProperties of another branch', { properties: { a: { type: 'object' } }, allOf: [{ additionalProperties: { const: {} } }] }, node({ a: 'whole' }, { rest: 'whole' })],
  ['patternProperties', { properties: { ab: { type: 'object' }, cd: { type: 'object' } }, patternProperties: { '^a': { minProperties: 1 } } }, node({ ab: names, cd: 'type' }, { rest: names })],
  ['patternProperties this engine cannot read', { properties: { ab: { type: 'object' } }, patternProperties: { '(?<': { required: ['x'] } } }, node({ ab: names }, { rest: names })],
  ['unevaluatedProperties', { properties: { a: { type: 'object' } }, unevaluatedProperties: { const: {} } }, node({ a: 'whole' }, { rest: 'whole' })],
  ['dependentSchemas', { properties: { a: { type: 'object' } }, dependentSchemas: { x: { properties: { a: { required: ['k'] } } } } }, node({ a: names })],
  ['dependencies (draft-07)', { properties: { a: { type: 'object' } }, dependencies: { x: ['y'], z: { properties: { a: { const: {} } } } } }, node({ a: 'whole' })],
  // In-place applicators: every branch that applies at a place is taken, whichever holds.
  ['if/then/else', { properties: { a: { type: 'object' } }, if: { properties: { k: { const: 1 } } }, then: { properties: { a: { required: ['x'] } } }, else: { properties: { b: { const: [] } } } }, node({ a: names, k: 'type', b: 'whole' })],
  ['allOf', { allOf: [{ properties: { a: { type: 'object' } } }, { properties: { a: { properties: { b: { const: {} } } } } }] }, node({ a: node({ b: 'whole' }) })],
  ['anyOf and oneOf', { anyOf: [{ properties: { a: { minItems: 1 } } }], oneOf: [{ properties: { c: { type: 'object' } } }] }, node({ a: node({}, { rest: 'type', items: 'type' }), c: 'type' })],
  ['not', { properties: { a: { type: 'object' } }, not: { properties: { a: { required: ['x'] } } } }, node({ a: names })],
  // Arrays: every subschema that may apply to an element, whichever its index.
  ['items', { properties: { list: { items: { type: 'object' } } } }, node({ list: node({}) })],
  ['items read inside', { properties: { list: { items: { properties: { id: { type: 'string' } } } } } }, node({ list: node({}, { items: node({ id: 'type' }) }) })],
  ['prefixItems and contains', { properties: { list: { prefixItems: [{ required: ['a'] }], contains: { type: 'object' }, minContains: 1 } } }, node({ list: node({}, { items: names }) })],
  ['tuple items and additionalItems (draft-07)', { properties: { list: { items: [{ type: 'object' }], additionalItems: { const: {} } } } }, node({ list: node({}, { items: 'whole' }) })],
  ['uniqueItems', { properties: { list: { uniqueItems: true } } }, node({ list: node({}, { items: 'whole' }) })],
  ['unevaluatedItems', { properties: { list: { unevaluatedItems: { required: ['a'] } } } }, node({ list: node({}, { items: names }) })],
  // $ref within the document: followed, by pointer, anchor or embedded $id.
  ['$ref to $defs', { $defs: { obj: { type: 'object' }, strict: { required: ['a'] } }, properties: { a: { $ref: '#/$defs/obj' }, b: { $ref: '#/$defs/strict' } } }, node({ a: 'type', b: names })],
  ['$ref to definitions, percent-encoded', { definitions: { 'a b': { required: ['x'] } }, properties: { a: { $ref: '#/definitions/a%20b' } } }, node({ a: names })],
  ['$ref by $anchor', { $defs: { t: { $anchor: 'tree', const: {} } }, properties: { a: { $ref: '#tree' } } }, node({ a: 'whole' })],
  ['$ref by the root $id', { $id: 'https://example.com/s/envelope.json', $defs: { t: { required: ['x'] } }, properties: { a: { $ref: 'https://example.com/s/envelope.json#/$defs/t' } } }, node({ a: names })],
  ['$ref to an embedded resource, relative to its $id', { $id: 'https://example.com/s/root.json', $defs: { inner: { $id: 'inner.json', $defs: { t: { required: ['q'] } } } }, properties: { a: { $ref: 'inner.json#/$defs/t' }, b: { $ref: 'https://example.com/s/inner.json' } } }, node({ a: names, b: 'type' })],
  ['$ref to the root: a loop, built whole where it repeats', { properties: { a: { $ref: '#' }, n: { type: 'number' } } }, node({ a: node({ a: 'whole', n: 'type' }), n: 'type' })],
  // What the walk cannot follow is built whole, at that place only.
  ['$ref to another file', { properties: { a: { $ref: 'common.json#/$defs/x' }, b: { type: 'object' } } }, node({ a: 'whole', b: 'type' })],
  ['$ref to a place the document lacks', { properties: { a: { $ref: '#/$defs/missing' } } }, node({ a: 'whole' })],
  ['$ref into a const', { properties: { a: { $ref: '#/properties/b/const' }, b: { const: 1 } } }, node({ a: 'whole', b: 'type' })],
  ['$dynamicRef', { $dynamicAnchor: 'n', properties: { a: { $dynamicRef: '#n' } } }, node({ a: 'whole' })],
  ['$recursiveRef (2019-09)', { $recursiveAnchor: true, properties: { a: { $recursiveRef: '#' } } }, node({ a: 'whole' })],
  ['a keyword ajv may know and the walk does not', { properties: { a: { type: 'object', nullable: true } } }, node({ a: 'whole' })],
  ['at the root', { $ref: 'other.json' }, 'whole'],
];

describe('the plan a schema asks for', () => {
  it.each(cases)('%s', (_name, schema, expected) => {
    expect(schemaPlanSpec(schema)).toEqual(expected);
  });

  it('a recursive schema: a tree of nodes, each place taken once, then built whole', () => {
    const tree = { $ref: '#/$defs/node', $defs: { node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } } } } };
    const inner = node({ label: 'type', children: 'whole' });
    expect(schemaPlanSpec(tree)).toEqual(node({ label: 'type', children: node({}, { items: inner }) }));
  });

  it('a member named __proto__ is a member like any other', () => {
    const plan = schemaPlanSpec(JSON.parse('{"properties":{"__proto__":{"required":["x"]},"a":{"type":"object"}}}')) as { members: Record<string, PlanSpec> };
    expect(Object.hasOwn(plan.members, '__proto__')).toBe(true);
    expect(plan.members['__proto__']).toEqual(names);
    expect(Object.getPrototypeOf(plan.members)).toBe(Object.prototype);
  });
});

describe('joining what the schema reads with what the checks read', () => {
  it("'type' gives way to anything, 'whole' to nothing but a node's reports of duplicate names", () => {
    expect(joinPlans('type', 'whole')).toBe('whole');
    expect(joinPlans('type', node({ a: 'type' }))).toEqual(node({ a: 'type' }));
    expect(joinPlans('whole', node({ a: 'type' }))).toBe('whole');
    expect(joinPlans('whole', { duplicates: true, members: { a: 'type' } })).toEqual({ duplicates: true, members: { a: 'whole' } });
    expect(joinPlans({ members: { a: 'type' }, rest: 'type' }, { members: { b: 'type' }, rest: 'type', items: 'type' })).toEqual({ members: { a: 'type', b: 'type' }, rest: 'type' });
    expect(joinPlans({ members: { a: node({ x: 'whole' }) } }, { valueOffsets: false, members: { a: node({ y: 'whole' }) } })).toEqual({ valueOffsets: false, members: { a: node({ x: 'whole', y: 'whole' }) } });
  });

  it('a schema that reads nothing leaves what the checks do not read unbuilt', () => {
    expect(envelopePlanSpecFor(true, { lastObservation: 'type' })).toEqual(envelopePlanSpec({ lastObservation: 'type' }));
    expect(envelopePlanSpecFor({ properties: { result: { type: 'object' }, error: { type: 'object' } } }, { lastObservation: 'type' })).toEqual(envelopePlanSpec({ lastObservation: 'type' }));
  });

  it("an image plan (built all or nothing, by its bytes) stays one with 'type' or itself, and is built whole where the schema reads inside", () => {
    expect(joinPlans('image', 'type')).toBe('image');
    expect(joinPlans('type', 'image')).toBe('image');
    expect(joinPlans('image', 'image')).toBe('image');
    expect(joinPlans('image', node({ a: 'type' }))).toBe('whole');
    expect(joinPlans('whole', 'image')).toBe('whole');
    const schema = { properties: { error: { properties: { lastObservation: { properties: { w: { const: 1 } } } } } } };
    const plan = envelopePlanSpecFor(schema, { lastObservation: 'image', valueOffsets: false }) as { members: Record<string, { members: Record<string, PlanSpec> }> };
    expect(plan.members['error']!.members['lastObservation']).toBe('whole');
    expect(envelopePlanSpecFor(true, { lastObservation: 'image' })).toEqual(envelopePlanSpec({ lastObservation: 'image' }));
  });

  it('a schema that reads inside error.partialResult has it built, duplicates still reported in error', () => {
    const schema = { properties: { error: { properties: { partialResult: { const: {} } } } } };
    const plan = envelopePlanSpecFor(schema, { lastObservation: 'type', valueOffsets: false }) as { members: Record<string, PlanSpec> };
    expect(plan.members['error']).toEqual({ duplicates: true, members: { code: 'whole', category: 'whole', detail: 'whole', partialResult: 'whole', lastObservation: 'type' } });
  });
});

/** Every member a plan names, as a path, in the order it names them. */
function memberOrder(spec: PlanSpec, path = ''): string[] {
  if (typeof spec === 'string') return [];
  const own = Object.entries(spec.members ?? {}).flatMap(([name, member]) => [`${path}/${name}`, ...memberOrder(member, `${path}/${name}`)]);
  return [...own, ...(spec.items === undefined ? [] : memberOrder(spec.items, `${path}/*`))];
}

describe('the bundled schemas', () => {
  const files = ['data/agent-tool-result.schema.json', 'data/agent-tool-result.schema.2026-07.json'];

  it.each(files)('%s gives the envelope plan, for every setting of lastObservation and valueOffsets', (file) => {
    const document = JSON.parse(readFileSync(join(repoRoot, file), 'utf8'));
    for (const lastObservation of ['whole', 'type', 'image'] as const) {
      for (const valueOffsets of [true, false, undefined]) {
        const options = { lastObservation, ...(valueOffsets !== undefined && { valueOffsets }) };
        const derived = envelopePlanSpecFor(document, options);
        expect(derived).toEqual(envelopePlanSpec(options));
        // Named in the same order too: the order the scanner tries names in.
        expect(memberOrder(derived)).toEqual(memberOrder(envelopePlanSpec(options)));
      }
    }
  });

  it('are planned without a walk when their bytes are those the package was built from, to the plan the walk gives', () => {
    for (const schemaVersion of ['2026-06', '2026-07']) {
      for (const inlineImage of ['warning', 'off'] as const) {
        const context = createCheckContext({ schemaVersion, rules: { 'inline-image': inlineImage } });
        expect(context.schema.asBuilt, schemaVersion).toBe(true);
        // The same schema read as a --schema file is: walked.
        const walked = { ...context, schema: { ...context.schema, asBuilt: undefined, document: structuredClone(context.schema.document) } };
        const planned = scanPlanFor(context, { parser: 'scan' });
        expect(planned).not.toBe(wholePlan);
        expect(planned).toEqual(scanPlanFor(walked, { parser: 'scan' }));
      }
    }
    // A --schema file, the bundled bytes or not, is walked.
    expect(createCheckContext({ schema: join(repoRoot, 'data/agent-tool-result.schema.2026-07.json') }).schema.asBuilt).toBeUndefined();
  });

  it('and what the schema alone reads: result, error.partialResult and error.lastObservation by their type', () => {
    const document = JSON.parse(readFileSync(join(repoRoot, files[0]!), 'utf8'));
    const error = node({ code: 'type', category: 'type', detail: 'type', lastObservation: 'type', partialResult: 'type' });
    expect(schemaPlanSpec(document)).toEqual(node({ sessionId: 'type', ok: 'type', result: 'type', warnings: node({}, { items: node({ code: 'type', detail: 'type' }) }), error }));
  });
});

describe('a --schema run', () => {
  // Constrains ok and the types of result and error; a record's result is a large tree.
  const okOnly = { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', required: ['ok'], properties: { ok: { type: 'boolean' }, result: { type: ['object', 'null'], description: 'the tool payload' }, error: { type: 'object' } } };
  const insideResult = { ...okOnly, properties: { ...okOnly.properties, result: { type: ['object', 'null'], required: ['nodes'], properties: { nodes: { type: 'array', items: { type: 'object', required: ['id'] } } } } } };
  const tree = (count: number) => ({ nodes: Array.from({ length: count }, (_, i) => ({ id: i, name: `node ${i}`, children: [{ role: 'button', bounds: [i, i, 10, 10] }] })) });
  const records = [
    { ok: true, result: tree(9000), sessionId: 's1' },
    { ok: true, result: { nodes: [{ name: 'no id' }, { id: 2 }] } },
    { ok: 'yes', result: tree(9000), error: 'not an object' },
    { ok: true, result: { tree: tree(5) } },
    { ok: true, result: [1, 2] },
    { ok: false, error: { code: 'element-not-found', category: 'no-target', detail: 'gone', partialResult: tree(3), lastObservation: { png: 'data:image/png;base64,iVBORw0KGgo=' } } },
  ];
  // Counts members and elements whose values stand in: the node keeps every name and element.
  const counts = { ...okOnly, properties: { ...okOnly.properties, result: { type: ['object', 'null'], minProperties: 2, maxProperties: 3, propertyNames: { pattern: '^[a-z]+$' }, properties: { nodes: { type: 'array', minItems: 3, maxItems: 5000 } } } } };
  const dir = tempFiles({ 'ok-only.schema.json': JSON.stringify(okOnly), 'inside-result.schema.json': JSON.stringify(insideResult), 'counts.schema.json': JSON.stringify(counts), 'records.jsonl': records.map((r) => JSON.stringify(r)).join('\n') + '\n' });
  const input = join(dir, 'records.jsonl');
  const report = (schema: string, parser: 'scan' | 'reference') => runCli(['check', '--format', 'json', '--jobs', '1', '--schema', join(dir, schema), input], { env: { MCEC_RESULT_PARSER: parser }, timeoutMs: 120_000 });

  it('leaves a result its schema types alone unbuilt', () => {
    const plan = scanPlanFor(createCheckContext({ schema: join(dir, 'ok-only.schema.json') }), { parser: 'scan' });
    expect(plan).not.toBe(wholePlan);
    const framed: Framed[] = [];
    frameBuffer(readFileSync(input), 'ndjson', { plan, builtWhole }, framed);
    const values = framed.map((entry) => (entry.kind === 'value' ? (entry.value as Record<string, unknown>) : {}));
    expect(isTypeOnly(values[0]!['result'])).toBe(true);
    expect(values[0]!['sessionId']).toBe('s1');
    // An array where the schema wants an object stands in as an array: the type error says "got array".
    expect(isTypeOnly(values[4]!['result']) && Array.isArray(values[4]!['result'])).toBe(true);
    expect(isTypeOnly((values[5]!['error'] as Record<string, unknown>)['partialResult'])).toBe(true);
    // inline-image reads inside lastObservation.
    expect((values[5]!['error'] as Record<string, unknown>)['lastObservation']).toEqual({ png: 'data:image/png;base64,iVBORw0KGgo=' });
  });

  it('that types result writes the report the JSON.parse path writes, a large rejected record listing its first error only', () => {
    const scanned = report('ok-only.schema.json', 'scan');
    const reference = report('ok-only.schema.json', 'reference');
    expect(scanned.stdout).toBe(reference.stdout);
    expect(scanned.status).toBe(reference.status);
    const findings = JSON.parse(scanned.stdout).findings as { line: number; rule: string; pointer?: string; message: string }[];
    // Line 3 holds more than 20,000 values: a schema compiled at run time lists its first error only.
    expect(findings.filter((f) => f.line === 3).map((f) => f.message)).toEqual([expect.stringMatching(/^ok must be a boolean/), expect.stringMatching(/^only the first schema error of this record is listed/)]);
    expect(findings.find((f) => f.line === 5)).toMatchObject({ rule: 'schema', pointer: '/result' });
  });

  it('that reads inside result reports its violations as the JSON.parse path does', () => {
    const scanned = report('inside-result.schema.json', 'scan');
    const reference = report('inside-result.schema.json', 'reference');
    expect(scanned.stdout).toBe(reference.stdout);
    expect(scanned.status).toBe(reference.status);
    const findings = JSON.parse(scanned.stdout).findings as { line: number; rule: string; pointer?: string; message: string }[];
    expect(findings).toContainEqual(expect.objectContaining({ line: 2, rule: 'schema', pointer: '/result/nodes/0', message: 'result.nodes[0] is missing required property "id"' }));
    expect(findings).toContainEqual(expect.objectContaining({ line: 4, rule: 'schema', pointer: '/result' }));
  });

  it('that counts members and elements of result reports as the JSON.parse path does', () => {
    const context = createCheckContext({ schema: join(dir, 'counts.schema.json') });
    const framed: Framed[] = [];
    frameBuffer(readFileSync(input), 'ndjson', { plan: scanPlanFor(context, { parser: 'scan' }), builtWhole }, framed);
    const nodes = framed[0]?.kind === 'value' ? ((framed[0].value as { result: { nodes: unknown[] } }).result.nodes as unknown[]) : [];
    expect(nodes).toHaveLength(9000);
    expect(isTypeOnly(nodes[0])).toBe(true);
    const scanned = report('counts.schema.json', 'scan');
    expect(scanned.stdout).toBe(report('counts.schema.json', 'reference').stdout);
    const findings = JSON.parse(scanned.stdout).findings as { line: number; pointer?: string; keyword?: string; message: string }[];
    // Line 1 holds more than 20,000 values: its first error only (minProperties), as on the JSON.parse path.
    expect(findings.map((f) => [f.line, f.pointer])).toEqual(expect.arrayContaining([[1, '/result'], [2, '/result'], [2, '/result/nodes'], [4, '/result']]));
    expect(findings.filter((f) => f.line === 1)).toHaveLength(2);
  });

  it('whose result is a $ref to another file builds result whole, with the same report', () => {
    writeFileSync(join(dir, 'split.schema.json'), JSON.stringify({ ...okOnly, properties: { ...okOnly.properties, result: { $ref: 'common.json' } } }));
    writeFileSync(join(dir, 'common.json'), JSON.stringify({ type: ['object', 'null'], required: ['nodes'] }));
    const plan = scanPlanFor(createCheckContext({ schema: join(dir, 'split.schema.json') }), { parser: 'scan' });
    const framed: Framed[] = [];
    frameBuffer(readFileSync(input), 'ndjson', { plan, builtWhole }, framed);
    expect(framed[0]).toMatchObject({ kind: 'value', value: { result: { nodes: expect.any(Array) } } });
    const scanned = report('split.schema.json', 'scan');
    expect(scanned.stdout).toBe(report('split.schema.json', 'reference').stdout);
    expect(JSON.parse(scanned.stdout).findings).toContainEqual(expect.objectContaining({ line: 4, rule: 'schema', pointer: '/result' }));
  });
});

// What the scanner must build of a record under a JSON Schema (scan-plan.ts's PlanSpec), derived
// from the schema document: a value is stood in by its type (`'type'`) only where no keyword of the
// schema can look inside it, and an object is built member by member where the keywords that reach
// it name its members. Every subschema that may apply at a place (through `$ref`, `allOf`, `anyOf`,
// `oneOf`, `not`, `if`/`then`/`else`, dependent schemas, whichever branch is taken) is taken
// together; whatever the walk cannot follow (a `$ref` to another document, `$dynamicRef`, a keyword
// it does not know, a loop) builds that place whole. The schema is plain JSON: its `$ref`s to other
// files are not read here, and build their places whole.
import type { PlanNode, PlanSpec } from './scan-plan.js';

type SchemaObject = Record<string, unknown>;

/** Keywords that say nothing about a value: annotations, identifiers, containers of definitions. */
const inert = new Set(['$schema', '$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor', '$comment', '$defs', 'definitions', '$vocabulary', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', 'contentEncoding', 'contentMediaType', 'contentSchema']);
/**
 * Keywords that read only a value's JSON type, or only strings and numbers (which a `'type'` plan
 * builds whole): a stood-in object or array meets them as the built one would.
 */
const typeOnlyKeywords = new Set(['type', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'formatMinimum', 'formatMaximum', 'formatExclusiveMinimum', 'formatExclusiveMaximum']);
/** Keywords that apply subschemas to the same value: followed, not judged themselves. */
const inPlace = new Set(['$ref', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);
/** Keywords that read an object's member names or members: the object is built member by member. */
const objectKeywords = new Set(['properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'required', 'dependentRequired', 'dependentSchemas', 'dependencies', 'propertyNames', 'minProperties', 'maxProperties']);
/** Keywords that read an array's length or elements: the array is built element by element. */
const arrayKeywords = new Set(['items', 'prefixItems', 'additionalItems', 'contains', 'minContains', 'maxContains', 'minItems', 'maxItems', 'uniqueItems', 'unevaluatedItems']);

/** Past this many places, or this deep, the walk stops and the record is built whole. */
const maxPlaces = 20_000;
const maxDepth = 64;

const isObject = (value: unknown): value is SchemaObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const isContainer = (value: unknown): boolean => typeof value === 'object' && value !== null;

/** Stands for "build this place whole" anywhere inside the walk. */
class GiveUp extends Error {}

/** The base URI of a schema without one of its own: relative `$ref`s resolve against it as ajv's empty base does. */
const defaultBase = 'https://schema.invalid/root.json';

/** A schema's resources by URI (`$id`), anchors by URI#name, and each subschema object's base URI. */
interface SchemaIndex {
  resources: Map<string, SchemaObject>;
  anchors: Map<string, SchemaObject>;
  bases: Map<SchemaObject, string>;
}

/** Each subschema a keyword holds, for the walk of the whole document (definitions included). */
function subschemas(schema: SchemaObject): unknown[] {
  const found: unknown[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (['allOf', 'anyOf', 'oneOf', 'prefixItems'].includes(keyword) && Array.isArray(value)) found.push(...value);
    else if (keyword === 'items' && Array.isArray(value)) found.push(...value);
    else if (['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions', 'dependencies'].includes(keyword) && isObject(value)) found.push(...Object.values(value));
    else if (['additionalProperties', 'unevaluatedProperties', 'propertyNames', 'items', 'additionalItems', 'contains', 'unevaluatedItems', 'not', 'if', 'then', 'else'].includes(keyword)) found.push(value);
  }
  return found.filter(isObject);
}

function withoutFragment(url: URL): string {
  return url.href.replace(/#.*$/, '');
}

function indexOf(document: SchemaObject): SchemaIndex {
  const index: SchemaIndex = { resources: new Map(), anchors: new Map(), bases: new Map() };
  const open: { schema: SchemaObject; base: string }[] = [{ schema: document, base: defaultBase }];
  while (open.length > 0) {
    const { schema, base: outer } = open.pop()!;
    if (index.bases.has(schema)) continue;
    let base = outer;
    const id = schema['$id'];
    if (typeof id === 'string') {
      // Draft-06 and -07 name an anchor `$id: "#name"`; any other `$id` starts a resource.
      if (id.startsWith('#')) index.anchors.set(`${base}${id}`, schema);
      else {
        try {
          base = withoutFragment(new URL(id, base));
        } catch {
          throw new GiveUp();
        }
        index.resources.set(base, schema);
      }
    }
    if (schema === document) index.resources.set(base, schema);
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const anchor = schema[keyword];
      if (typeof anchor === 'string') index.anchors.set(`${base}#${anchor}`, schema);
    }
    index.bases.set(schema, base);
    for (const sub of subschemas(schema)) open.push({ schema: sub as SchemaObject, base });
  }
  return index;
}

/** The subschema a `$ref` names within the document; GiveUp when it names another document or a place the index does not hold. */
function resolveRef(index: SchemaIndex, from: SchemaObject, ref: string): SchemaObject | boolean {
  let url: URL;
  let fragment: string;
  try {
    url = new URL(ref, index.bases.get(from)!);
    fragment = decodeURIComponent(url.hash.slice(1));
  } catch {
    throw new GiveUp();
  }
  const resource = index.resources.get(withoutFragment(url));
  if (resource === undefined) throw new GiveUp();
  if (fragment === '') return resource;
  if (!fragment.startsWith('/')) {
    const anchored = index.anchors.get(`${withoutFragment(url)}#${fragment}`);
    if (anchored === undefined) throw new GiveUp();
    return anchored;
  }
  let node: unknown = resource;
  for (const token of fragment.slice(1).split('/')) {
    const step = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isContainer(node) || !Object.hasOwn(node as object, step)) throw new GiveUp();
    node = (node as Record<string, unknown>)[step];
  }
  if (typeof node === 'boolean') return node;
  // A place the walk of subschemas never reached (inside `const`, or under a keyword ajv does not
  // know) has no base the index knows.
  if (!isObject(node) || !index.bases.has(node)) throw new GiveUp();
  return node;
}

/** Every subschema object that applies at one place, given those that apply there directly. */
function inPlaceClosure(index: SchemaIndex, direct: readonly unknown[]): SchemaObject[] {
  const seen = new Set<SchemaObject>();
  const open = [...direct];
  while (open.length > 0) {
    const schema = open.pop();
    // `true` holds for anything, `false` for nothing: neither looks inside the value.
    if (typeof schema === 'boolean' || seen.has(schema as SchemaObject)) continue;
    if (!isObject(schema)) throw new GiveUp();
    seen.add(schema);
    for (const [keyword, value] of Object.entries(schema)) {
      if (inert.has(keyword) || typeOnlyKeywords.has(keyword) || objectKeywords.has(keyword) || arrayKeywords.has(keyword)) continue;
      if (keyword === 'const' || keyword === 'enum') {
        // Compared by value: a container stood in would compare as an empty one, unless no allowed value is a container.
        if (keyword === 'const' ? isContainer(value) : !Array.isArray(value) || value.some(isContainer)) throw new GiveUp();
        continue;
      }
      if (!inPlace.has(keyword)) throw new GiveUp();
      if (keyword === '$ref') {
        if (typeof value !== 'string') throw new GiveUp();
        open.push(resolveRef(index, schema, value));
      } else if (keyword === 'allOf' || keyword === 'anyOf' || keyword === 'oneOf') {
        if (!Array.isArray(value)) throw new GiveUp();
        open.push(...value);
      } else open.push(value);
    }
    for (const keyword of ['dependentSchemas', 'dependencies']) {
      const map = schema[keyword];
      if (!isObject(map)) continue;
      // `dependencies` holds either names (read as `dependentRequired`) or a schema, per member.
      for (const value of Object.values(map)) if (keyword === 'dependentSchemas' || !Array.isArray(value)) open.push(value);
    }
  }
  return [...seen];
}

/** Whether a `patternProperties` pattern may match `name` (one ajv could read but this engine cannot: it may). */
function mayMatch(pattern: string, name: string): boolean {
  try {
    return new RegExp(pattern, 'u').test(name);
  } catch {
    return true;
  }
}

function entries(value: unknown): [string, unknown][] {
  return isObject(value) ? Object.entries(value) : [];
}

class Walk {
  private places = 0;
  /** The places being worked out, by the subschemas that apply there: meeting one again is a loop. */
  private readonly path = new Set<string>();
  private readonly ids = new Map<SchemaObject, number>();

  constructor(private readonly index: SchemaIndex) {}

  /** The plan of a place where the subschemas `direct` apply (and what they apply in place). */
  planOf(direct: readonly unknown[], depth: number): PlanSpec {
    if (++this.places > maxPlaces) throw new GiveUp();
    let schemas: SchemaObject[];
    try {
      schemas = inPlaceClosure(this.index, direct);
    } catch (error) {
      if (error instanceof GiveUp) return 'whole';
      throw error;
    }
    const readsObject = schemas.some((schema) => Object.keys(schema).some((keyword) => objectKeywords.has(keyword)));
    const readsArray = schemas.some((schema) => Object.keys(schema).some((keyword) => arrayKeywords.has(keyword)));
    if (!readsObject && !readsArray) return 'type';
    const key = schemas.map((schema) => this.idOf(schema)).sort((a, b) => a - b).join(',');
    if (depth >= maxDepth || this.path.has(key)) return 'whole';
    this.path.add(key);
    try {
      return normalized({ ...(readsObject ? this.objectPlan(schemas, depth) : { rest: 'type' }), items: readsArray ? this.itemsPlan(schemas, depth) : 'type' });
    } finally {
      this.path.delete(key);
    }
  }

  private idOf(schema: SchemaObject): number {
    let id = this.ids.get(schema);
    if (id === undefined) this.ids.set(schema, (id = this.ids.size));
    return id;
  }

  /** Members named by `properties`; each with every subschema that may apply to it; the rest likewise. */
  private objectPlan(schemas: readonly SchemaObject[], depth: number): PlanNode {
    const names = new Set<string>();
    for (const schema of schemas) for (const [name] of entries(schema['properties'])) names.add(name);
    const members: Record<string, PlanSpec> = {};
    for (const name of names) {
      const applying: unknown[] = [];
      for (const schema of schemas) {
        const properties = isObject(schema['properties']) ? schema['properties'] : {};
        if (Object.hasOwn(properties, name)) applying.push(properties[name]);
        let patterned = false;
        for (const [pattern, sub] of entries(schema['patternProperties'])) {
          if (!mayMatch(pattern, name)) continue;
          patterned = true;
          applying.push(sub);
        }
        if (Object.hasOwn(schema, 'additionalProperties') && !Object.hasOwn(properties, name) && !patterned) applying.push(schema['additionalProperties']);
        // Whether a member counts as evaluated depends on the branches that held: it may apply to any.
        if (Object.hasOwn(schema, 'unevaluatedProperties')) applying.push(schema['unevaluatedProperties']);
      }
      // Defined on the object made here: a member named `__proto__` is a key like any other.
      Object.defineProperty(members, name, { value: this.planOf(applying, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    const rest: unknown[] = [];
    for (const schema of schemas) {
      for (const [, sub] of entries(schema['patternProperties'])) rest.push(sub);
      for (const keyword of ['additionalProperties', 'unevaluatedProperties']) if (Object.hasOwn(schema, keyword)) rest.push(schema[keyword]);
    }
    return { members, rest: this.planOf(rest, depth + 1) };
  }

  /** Every subschema that may apply to an element, whichever its index. */
  private itemsPlan(schemas: readonly SchemaObject[], depth: number): PlanSpec {
    const applying: unknown[] = [];
    for (const schema of schemas) {
      // Elements compared with each other are compared whole.
      if (schema['uniqueItems'] === true) return 'whole';
      for (const keyword of ['items', 'prefixItems', 'additionalItems', 'contains', 'unevaluatedItems']) {
        if (!Object.hasOwn(schema, keyword)) continue;
        const value = schema[keyword];
        if (Array.isArray(value)) applying.push(...value);
        else applying.push(value);
      }
    }
    return this.planOf(applying, depth + 1);
  }
}

/** A node with nothing to say beyond `'whole'` is `'whole'`; `'whole'` members, rest and items go unsaid (their default). */
function normalized(node: PlanNode): PlanSpec {
  const out: PlanNode = {};
  if (node.members !== undefined && Object.keys(node.members).length > 0) out.members = node.members;
  if (node.rest !== undefined && node.rest !== 'whole') out.rest = node.rest;
  if (node.items !== undefined && node.items !== 'whole') out.items = node.items;
  if (node.duplicates === true) out.duplicates = true;
  if (node.valueOffsets !== undefined) out.valueOffsets = node.valueOffsets;
  if (node.numberText === true) out.numberText = true;
  const says = out.rest !== undefined || out.items !== undefined || out.duplicates === true || out.valueOffsets !== undefined || out.numberText === true || Object.values(out.members ?? {}).some((member) => member !== 'whole');
  return says ? out : 'whole';
}

/**
 * The plan of a record under `document`, a JSON Schema (draft 2020-12, 2019-09, -07 or -06): what
 * the schema's keywords can read, no more. A place no keyword reaches is `'type'`.
 */
export function schemaPlanSpec(document: unknown): PlanSpec {
  if (typeof document === 'boolean') return 'type';
  if (!isObject(document)) return 'whole';
  try {
    return new Walk(indexOf(document)).planOf([document], 0);
  } catch (error) {
    if (error instanceof GiveUp) return 'whole';
    throw error;
  }
}

/** The members of a node, `'whole'` read as a node that builds everything. */
function asNode(spec: Exclude<PlanSpec, 'type' | 'image'>): PlanNode {
  return spec === 'whole' ? {} : spec;
}

function memberOf(node: PlanNode, name: string): PlanSpec {
  return node.members !== undefined && Object.hasOwn(node.members, name) ? node.members[name]! : (node.rest ?? 'whole');
}

/**
 * A plan that builds what either plan builds, and reports what either reports (duplicate names,
 * value offsets): `'type'` < a node < `'whole'` (and `'type'` < `'image'` < `'whole'`), except that a node's reports outlive `'whole'`.
 */
export function joinPlans(a: PlanSpec, b: PlanSpec): PlanSpec {
  if (a === 'type') return b;
  if (b === 'type') return a;
  // An image plan builds all or nothing, by the bytes: joined with anything that reads inside, all.
  if (a === 'image' || b === 'image') return a === b ? 'image' : 'whole';
  if (a === 'whole' && b === 'whole') return 'whole';
  const x = asNode(a);
  const y = asNode(b);
  const members: Record<string, PlanSpec> = {};
  for (const name of new Set([...Object.keys(x.members ?? {}), ...Object.keys(y.members ?? {})])) {
    Object.defineProperty(members, name, { value: joinPlans(memberOf(x, name), memberOf(y, name)), enumerable: true, writable: true, configurable: true });
  }
  const valueOffsets = x.valueOffsets ?? y.valueOffsets;
  return normalized({
    members,
    rest: joinPlans(x.rest ?? 'whole', y.rest ?? 'whole'),
    items: joinPlans(x.items ?? 'whole', y.items ?? 'whole'),
    duplicates: x.duplicates === true || y.duplicates === true,
    ...(valueOffsets !== undefined && { valueOffsets: x.valueOffsets === true || y.valueOffsets === true }),
    numberText: x.numberText === true || y.numberText === true,
  });
}

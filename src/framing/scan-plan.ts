// What the scanner builds of a line (scan.ts): a tree saying, member by member, which values are
// built whole, which only as a stand-in of their JSON type, and which objects are entered to decide
// member by member. What no check reads (a tool's `result`, a UIA tree) is then validated and never built.
import { pointerToken } from '../json-pointer.js';

/**
 * How to build one value:
 * - `'whole'`: exactly what JSON.parse gives.
 * - `'type'`: an object or array is validated, not built, and stands in as `typeOnly`'s empty one;
 *   any other value is built whole.
 * - `'image'`: as `'whole'` when the value may hold image bytes as the `inline-image` rule looks for
 *   them (scan-image.ts), else as `'type'`.
 * - a `PlanNode`: an object is built member by member, an array element by element, as the node
 *   says; any other value is built whole.
 */
export type PlanSpec = 'whole' | 'type' | 'image' | PlanNode;

export interface PlanNode {
  /** How each named member of an object is built. */
  members?: Readonly<Record<string, PlanSpec>>;
  /** How other members are built; `'whole'` when not given. */
  rest?: PlanSpec;
  /** How an array's elements are built; `'whole'` when not given. */
  items?: PlanSpec;
  /** Report a member name this object holds more than once (ScanAccept.duplicates). */
  duplicates?: boolean;
  /** Report where each member's value starts (ScanAccept.valueOffsets); meant for the top level. */
  valueOffsets?: boolean;
  /** For a number: keep its source text too (ScanAccept.numberTexts), e.g. a JSON-RPC `id`. */
  numberText?: boolean;
}

/**
 * The stand-ins of `'type'` values that are objects or arrays: one shared frozen empty object, one
 * shared frozen empty array. A rule may ask of one only its JSON type (`typeof`, `Array.isArray`,
 * `=== null`); `isTypeOnly` tells it from a value built. A `'type'` value of any other type is built
 * whole: it costs little, and a schema error's words may quote it (a string holding JSON).
 */
export const typeOnly = {
  object: Object.freeze({}) as Readonly<Record<string, unknown>>,
  array: Object.freeze([]) as readonly unknown[],
} as const;

/** Whether `value` is the stand-in of an object or array the scanner did not build. */
export function isTypeOnly(value: unknown): boolean {
  return value === typeOnly.object || value === typeOnly.array;
}

/** A plan in the form the scanner reads: names looked up in a Map, defaults filled in. */
export interface CompiledNode {
  readonly members: ReadonlyMap<string, Compiled>;
  /** The named members again, by their bytes as a plain name is written, and a pointer token each. */
  readonly named: readonly NamedMember[];
  readonly rest: Compiled;
  readonly items: Compiled;
  readonly duplicates: boolean;
  readonly valueOffsets: boolean;
  readonly numberText: boolean;
  /** Object makers by order of named members met (scan-shape.ts), filled as lines are scanned. */
  readonly shapes: Map<number, ObjectMaker>;
}

export type Compiled = 'whole' | 'type' | 'image' | CompiledNode;

/**
 * A named member of a plan node, its name printable ASCII with no quote or backslash: where a line
 * writes it so (no escape), it is matched on its bytes, without a pass over the string first, and
 * the plan's own string (one V8 holds interned) is the key, not a fresh one per line.
 */
export interface NamedMember {
  readonly name: string;
  /** Its place in the node's `named`, below 15 (a bit in a mask, 4 bits in a shape key). */
  readonly index: number;
  readonly bytes: Uint8Array;
  readonly plan: Compiled;
  /** The name as a JSON Pointer token. */
  readonly token: string;
}

/** Makes the object whose members are `values[base]...` in the order of its shape's names (scan-shape.ts). */
export type ObjectMaker = (values: readonly unknown[], base: number) => Record<string, unknown>;

/** A plan made once per run (or schema), read for every line. */
export interface ScanPlan {
  readonly root: Compiled;
}

function compile(spec: PlanSpec): Compiled {
  if (spec === 'whole' || spec === 'type' || spec === 'image') return spec;
  const members = new Map<string, Compiled>();
  const named: NamedMember[] = [];
  for (const [name, member] of Object.entries(spec.members ?? {})) {
    const plan = compile(member);
    members.set(name, plan);
    // Other names (`__proto__`, one a literal would take for the prototype; one written with an
    // escape or past ASCII; past the 15th) are found by the Map, and their objects made member by member.
    if (name !== '__proto__' && /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(name) && named.length < 15) named.push({ name, index: named.length, bytes: Buffer.from(name, 'utf8'), plan, token: pointerToken(name) });
  }
  return {
    members,
    named,
    rest: compile(spec.rest ?? 'whole'),
    items: compile(spec.items ?? 'whole'),
    duplicates: spec.duplicates ?? false,
    valueOffsets: spec.valueOffsets ?? false,
    numberText: spec.numberText ?? false,
    shapes: new Map(),
  };
}

export function compilePlan(spec: PlanSpec): ScanPlan {
  return { root: compile(spec) };
}

/** Builds the whole line: the plan of a schema whose constraints reach inside everything. */
export const wholePlan: ScanPlan = compilePlan('whole');

// The unwrapping stage: a registry of unwrappers keyed by the --unwrap mode.
import type { CheckContext } from '../checks/check-envelope.js';
import type { ScanPlan } from '../framing/scan.js';
import { autoUnwrapper } from './auto.js';
import { bareUnwrapper } from './bare.js';
import type { CallWatcher, Unwrapper } from './types.js';

export type UnwrapMode = 'auto' | 'none';

export interface UnwrapContext {
  check: CheckContext;
  /** Told of each tool call and its first answer (spec section 9). */
  calls?: CallWatcher;
  /** What the scanner builds of an envelope in a text block; undefined: JSON.parse builds it whole. */
  textPlan?: ScanPlan;
}

// `auto` recognises MCP results, JSON-RPC messages and transcript lines (spec section 3, wrappings
// 2-4); `none` reads every value as a bare envelope, for the raw schema verdict.
export const unwrappers = {
  auto: (context: UnwrapContext) => autoUnwrapper(context.check, context.calls, context.textPlan),
  none: (_context: UnwrapContext) => bareUnwrapper(),
} satisfies Record<UnwrapMode, (context: UnwrapContext) => Unwrapper>;

export const unwrapModes = Object.keys(unwrappers) as UnwrapMode[];
export type { FramedValue, Unwrapped, Unwrapper, LateFinding } from './types.js';

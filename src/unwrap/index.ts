// The unwrapping stage: a registry of unwrappers keyed by the --unwrap mode.
import type { CheckContext } from '../checks/check-envelope.js';
import { bareUnwrapper } from './bare.js';
import type { Unwrapper } from './types.js';

export type UnwrapMode = 'auto' | 'none';

export interface UnwrapContext {
  check: CheckContext;
}

// `auto` will recognise MCP results, JSON-RPC responses and transcript lines (spec section 3,
// wrappings 2-4); until those land, every value is read as a bare envelope in both modes.
export const unwrappers = {
  auto: (_context: UnwrapContext) => bareUnwrapper(),
  none: (_context: UnwrapContext) => bareUnwrapper(),
} satisfies Record<UnwrapMode, (context: UnwrapContext) => Unwrapper>;

export const unwrapModes = Object.keys(unwrappers) as UnwrapMode[];
export type { Unwrapped, Unwrapper, LateFinding } from './types.js';

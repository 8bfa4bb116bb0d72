import type { Unwrapper } from './types.js';

/** Every value is checked as a bare envelope (wrapping 1 of spec section 3): --unwrap none. */
export function bareUnwrapper(): Unwrapper {
  return {
    unwrap: ({ value, extracted }) => ({ kind: 'record', envelope: value, hasEnvelope: true, wrapping: extracted ? 'log' : 'bare', findings: [] }),
    finish: () => [],
    unreadable: () => {},
    paired: () => false,
  };
}

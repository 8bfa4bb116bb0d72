import type { Unwrapper } from './types.js';

/** Every value is checked as a bare envelope (wrapping 1 of spec section 3). */
export function bareUnwrapper(): Unwrapper {
  return {
    unwrap: (value) => ({ kind: 'record', envelope: value, wrapping: 'bare', findings: [] }),
    finish: () => [],
  };
}

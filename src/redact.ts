// --redact (issue 4): transcripts carry screen text and details, and reports get uploaded or posted
// to pull requests. With it, no value of `result`, `error.detail`, `error.lastObservation`,
// `error.partialResult` or `warnings[].detail` appears in any message; the pointer and rule still
// say where and what.

/** The members withheld: a pointer that starts with one is at or below it. */
const redactedRoot = /^(?:\/result|\/error\/(?:detail|lastObservation|partialResult)|\/warnings\/\d+\/detail)(?=\/|$)/;

export function isRedactedPointer(pointer: string): boolean {
  return redactedRoot.test(pointer);
}

export const withheld = '(value withheld by --redact)';

/**
 * A pointer below a member --redact withholds, with the member names below it withheld as `*`
 * (array indices kept): they are the value's own keys, and `/result/acct-4111111111111111` or
 * `/error/lastObservation/jane.doe@corp.com/base64` would show in every format what the message withholds.
 * Baselines compare pointers this way whether or not the run redacts, so a baseline written with
 * --redact (which holds no key) matches a run without it, and the other way round.
 */
export function redactPointer(pointer: string): string {
  const root = redactedRoot.exec(pointer)?.[0];
  if (root === undefined || root.length === pointer.length) return pointer;
  const below = pointer.slice(root.length + 1).split('/');
  return `${root}/${below.map((step) => (/^\d+$/.test(step) ? step : '*')).join('/')}`;
}

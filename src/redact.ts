// --redact (issue 4): transcripts carry screen text and details, and reports get uploaded or posted
// to pull requests. With it, no value of `result`, `error.detail`, `error.lastObservation`,
// `error.partialResult` or `warnings[].detail` appears in any message; the pointer and rule still
// say where and what.

const redactedMembers = [/^\/result(\/|$)/, /^\/error\/(detail|lastObservation|partialResult)(\/|$)/, /^\/warnings\/\d+\/detail(\/|$)/];

export function isRedactedPointer(pointer: string): boolean {
  return redactedMembers.some((member) => member.test(pointer));
}

export const withheld = '(value withheld by --redact)';

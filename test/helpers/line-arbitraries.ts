// Generators of line values: envelopes, MCP results, JSON-RPC messages, transcript lines and
// truncation markers, shared by the property tests (test/properties.test.ts, section 5) and the
// scanner's differential test, so that both hold the checker to the same shapes.
import fc from 'fast-check';

export const smallObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3, noNullPrototype: true });
export const category = fc.constantFrom('timeout', 'ambiguous-selector', 'stale-element', 'no-target', 'invalid-argument', 'capture-blank', 'focus', 'elevation', 'foreground', 'internal', 'no_target', 'Timeout', '');
export const errorLike = fc.record(
  {
    code: fc.oneof(fc.constantFrom('element-not-found', 'window-not-fonud', 'selector-matched-3', 'Bad_Code'), fc.jsonValue({ maxDepth: 1 })),
    category: fc.oneof(category, fc.jsonValue({ maxDepth: 1 })),
    detail: fc.oneof(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })),
    lastObservation: fc.oneof(smallObject, fc.constant(null), fc.record({ base64: fc.string() }), fc.constant({ png: 'data:image/png;base64,iVBORw0KGgo=' }), fc.jsonValue({ maxDepth: 2 })),
    partialResult: fc.oneof(smallObject, fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
    extra: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
export const envelopeLike = fc.record(
  {
    ok: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 1 })),
    result: fc.oneof(smallObject, fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
    error: fc.oneof(errorLike, fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
    warnings: fc.oneof(fc.array(fc.record({ code: fc.oneof(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })), detail: fc.string({ maxLength: 10 }) }, { requiredKeys: [] }), { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
    sessionId: fc.oneof(fc.constantFrom('5f19c9c01a3f', 's2'), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
    junk: fc.jsonValue({ maxDepth: 1 }),
  },
  { requiredKeys: [] },
);
const textBlock = fc.oneof(
  envelopeLike.map((e) => ({ type: 'text', text: JSON.stringify(e) })),
  fc.record({ type: fc.constantFrom('text', 'image', 'resource', 7), text: fc.oneof(fc.string({ maxLength: 20 }), fc.json({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 1 })), data: fc.constant('<redacted base64>') }, { requiredKeys: [] }),
  fc.jsonValue({ maxDepth: 1 }),
);
export const callToolResult = fc.record(
  {
    content: fc.oneof(fc.array(textBlock, { maxLength: 4 }), fc.jsonValue({ maxDepth: 1 })),
    structuredContent: fc.oneof(envelopeLike, fc.jsonValue({ maxDepth: 2 })),
    isError: fc.oneof(fc.boolean(), fc.jsonValue({ maxDepth: 0 })),
    ok: fc.boolean(),
  },
  { requiredKeys: [] },
);
const rpcId = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constantFrom('a', 'b'), fc.constant(null), fc.jsonValue({ maxDepth: 1 }));
export const rpcMessage = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 0 })),
      id: rpcId,
      method: fc.oneof(fc.constantFrom('tools/call', 'tools/list', 'initialize'), fc.jsonValue({ maxDepth: 1 })),
      params: fc.oneof(fc.record({ name: fc.oneof(fc.constantFrom('capture', 'find', 'invoke'), fc.jsonValue({ maxDepth: 0 })), arguments: smallObject }, { requiredKeys: [] }), fc.jsonValue({ maxDepth: 1 })),
    },
    { requiredKeys: ['jsonrpc'] },
  ),
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue({ maxDepth: 0 })),
      id: rpcId,
      result: fc.oneof(callToolResult, envelopeLike, fc.jsonValue({ maxDepth: 2 })),
      error: fc.oneof(fc.record({ code: fc.integer(), message: fc.string({ maxLength: 10 }) }), fc.jsonValue({ maxDepth: 1 })),
    },
    { requiredKeys: ['jsonrpc'] },
  ),
);
export const transcriptLine = fc.record(
  {
    ts: fc.constant('2026-07-01T10:15:02.123Z'),
    sessionId: fc.oneof(fc.constantFrom('5f19c9c01a3f', 'other'), fc.jsonValue({ maxDepth: 0 })),
    direction: fc.oneof(fc.constantFrom('request', 'response'), fc.jsonValue({ maxDepth: 0 })),
    method: fc.constantFrom('tools/call', 'tools/list'),
    payload: fc.oneof(rpcMessage, callToolResult, envelopeLike, fc.jsonValue({ maxDepth: 2 })),
    ok: fc.boolean(),
    jsonrpc: fc.constant('2.0'),
  },
  { requiredKeys: ['direction', 'payload'] },
);
export const truncation = fc.oneof(fc.constant({ truncated: 'tool-call log size cap reached' }), fc.record({ truncated: fc.jsonValue({ maxDepth: 1 }) }));

// Pairing by order, for transcript requests that carry no JSON-RPC id (spec section 8.1). MCEC's
// client (`Invoke-McecTool`) writes a tool call as two lines, one after the other: a request whose
// payload is `{name, arguments}` and the response with the whole JSON-RPC response as payload. Such
// a request is answered by the response that is the next line of its session, with no line framing
// could not read between them; any other next line leaves it unanswered.
import { has, isObject, stringMember } from '../checks/envelope.js';

/** A session's key as the pairing has it: a transcript sessionId (a number or boolean kept apart from a string). */
export type PairingKey = string | number | boolean;

/** The method and tool an id-less request names: `tools/call` (the line's `method`, when a string) and the payload's `name`. */
export function namedRequest(lineMethod: unknown, payload: unknown): { method: string; tool: string | undefined } {
  const method = typeof lineMethod === 'string' ? lineMethod : 'tools/call';
  const tool = method === 'tools/call' && isObject(payload) ? stringMember(payload, 'name') : undefined;
  return { method, tool };
}

/** A payload that is a JSON-RPC message: it pairs by id, never by order. */
export function isJsonRpcPayload(payload: unknown): boolean {
  return isObject(payload) && has(payload, 'jsonrpc');
}

/** Why an id-less request was left unanswered, for its finding. */
export interface LeftOpen<R> {
  request: R;
  /** The next line of its session; undefined when none came. */
  next: number | undefined;
  /** Whether that line is a response (then lines that could not be read came between). */
  nextIsResponse: boolean;
  /** The input's unreadable lines counted when it was left: those after it and before this are where its answer may be. */
  unreadableUntil: number;
}

/** The id-less requests of an input waiting for the next line of their session; at most one a session. */
export class OrderPairing<R extends { unreadable: { before: number } }> {
  /**
   * By session; a session whose request was settled keeps its entry, undefined. A Map's delete
   * leaves a hole that V8 reclaims by building the table anew once holes fill it, and a transcript
   * settles once a call: deleting would rebuild a few-entry table every few calls.
   */
  private readonly waiting = new Map<PairingKey, R | undefined>();
  /** How many entries of `waiting` hold a request. */
  private count = 0;
  /** Requests no next line answered, in the order they were left. */
  readonly left: LeftOpen<R>[] = [];

  /** After `settle` for its line, which left the session without a waiting request. */
  wait(session: PairingKey, request: R): void {
    this.waiting.set(session, request);
    this.count++;
  }

  /**
   * A line of `session` has come (`line`, a response or not): the request it answers by order, if
   * any. A request it does not answer is left open, never to be answered.
   */
  settle(session: PairingKey, isResponse: boolean, line: number, unreadableCount: number): R | undefined {
    if (this.count === 0) return undefined;
    const request = this.waiting.get(session);
    if (request === undefined) return undefined;
    this.waiting.set(session, undefined);
    this.count--;
    if (isResponse && request.unreadable.before === unreadableCount) return request;
    this.left.push({ request, next: line, nextIsResponse: isResponse, unreadableUntil: unreadableCount });
    return undefined;
  }

  /** At the input's end: every request still waiting is left open, no line of its session after it. */
  finish(unreadableCount: number): void {
    for (const request of this.waiting.values()) if (request !== undefined) this.left.push({ request, next: undefined, nextIsResponse: false, unreadableUntil: unreadableCount });
    this.waiting.clear();
    this.count = 0;
  }
}

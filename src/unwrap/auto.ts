// Recognition of wrappings 1-4 of spec section 3, in the order spec section 7 fixes: the truncation
// marker, a transcript line (its payload recognised in turn), a JSON-RPC message, an MCP
// CallToolResult, else a bare envelope. JSON-RPC requests are remembered per input by (transcript
// sessionId, id) so that each response is attributed to its tool and pairing faults are found.
import { isRuleId } from '../checks/catalog.js';
import { ruleFinding, type CheckContext } from '../checks/check-envelope.js';
import { has, isObject, quote, shorten, type JsonObject } from '../checks/envelope.js';
import { isMemberlessObject } from '../checks/envelope-members.js';
import type { RecordFinding, RuleId, Wrapping } from '../types.js';
import type { ScanPlan } from '../framing/scan.js';
import { numbersExact } from '../framing/member-text.js';
import { IdKeys, idText, type IdKey } from './id-key.js';
import { isCallToolResult, unwrapCallToolResult } from './mcp.js';
import { isJsonRpcPayload, namedRequest, OrderPairing, type LeftOpen } from './order-pairing.js';
import type { CallWatcher, FramedValue, LateFinding, Unwrapped, Unwrapper } from './types.js';

/** What a second response to an id says of the request it already answered. */
interface Answered {
  method: string;
  tool: string | undefined;
  line: number;
}

interface Request extends Answered {
  /** Its place among the input's entries: records of a `.json` array written on one line share a line. */
  entry: number;
  transcript: boolean;
  /** The lines framing could not read from here on, which may hold its answer. */
  unreadable: UnreadableMark;
  /** A `tools/call`'s handle for the recovery checks (spec section 9), until its first answer. */
  call: object | undefined;
}

/**
 * Unreadable lines as a request sees them: how many came before it, and the first after it (filled
 * in when it comes). Shared by the requests between two unreadable lines, so none is walked per line.
 */
interface UnreadableMark {
  before: number;
  firstAfter: number | undefined;
}

/** Answered requests a queue that is never emptied holds before it lets them go. */
const compactFrom = 1024;

/** Requests in the order they came, taken from the front without copying the rest. */
class Queue {
  private readonly items: Request[];
  private head = 0;

  /**
   * An array made with its first request is one element long, where one pushed onto `[]` takes room
   * for 17: most queues only ever hold one, and a transcript of a million unanswered requests has a
   * million of them.
   */
  constructor(first?: Request) {
    this.items = first === undefined ? [] : [first];
  }

  get size(): number {
    return this.items.length - this.head;
  }

  push(request: Request): void {
    this.items.push(request);
  }

  take(): Request | undefined {
    const request = this.items[this.head++];
    // Emptied: start again, so that a long-lived id holds no answered requests. One that never
    // empties (a client pipelining on one id) would hold every request it has answered: those go
    // once they are half the array, which costs each request one move at most.
    if (this.head >= this.items.length) (this.items.length = 0), (this.head = 0);
    else if (this.head >= compactFrom && 2 * this.head >= this.items.length) this.items.splice(0, this.head), (this.head = 0);
    return request;
  }

  /**
   * The first request from entry `from` on, else the front. Those before `from` are the cancelled
   * ones and always lead the queue: the one taken swaps places with the front, which keeps them
   * first, so a binary search finds it.
   */
  takeFrom(from: number): Request | undefined {
    const { items, head } = this;
    if (head >= items.length || items[head]!.entry >= from || items[items.length - 1]!.entry < from) return this.take();
    let low = head + 1;
    let high = items.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (items[middle]!.entry >= from) high = middle;
      else low = middle + 1;
    }
    [items[head], items[low]] = [items[low]!, items[head]!];
    return this.take();
  }

  remaining(): readonly Request[] {
    return this.items.slice(this.head);
  }
}

/**
 * One JSON-RPC id of a session: its requests not answered yet and the last one answered. More than
 * one is open when the server's own requests (`roots/list`, `ping`) number from 1 as the client's
 * do, or a client reuses an id: each is answered in turn, none overwriting another. A result that reads as another method's answer (see answersOtherMethod) answers the first
 * open request of another method, any other response the first open `tools/call`, else the first
 * open one: two queues, each taken from the front, so that no message walks the others (a chain
 * walked per message is quadratic in the requests of one id).
 */
interface Slot {
  toolCalls: Queue;
  /** Requests of other methods, made when the first one comes. */
  others: Queue | undefined;
  /** The last request answered; null when a response came with no request (a second is a duplicate). */
  answered: Answered | null | undefined;
  /**
   * `notifications/cancelled` for this id: either side may cancel a request it sent, and a
   * transcript does not say which sent it, so as many of the requests left open are not reported
   * unanswered (MCP: a cancelled request should not be answered). Never more than are open: a
   * cancellation concerns the requests pending when it came, not a later one that reuses the id.
   */
  cancels: number;
  /**
   * The entry of the cancellation that left every open request of the id cancelled: those before it
   * are known to be, and an answer goes to a later request (reusing the id) while one is open.
   */
  cancelledBefore: number;
  /**
   * The tool call a JSON-RPC error was given to while a request of another method was open too: an
   * error does not say which it answers. Taken back when the next answer of the id is a tool result
   * and no tool call is left open for it: the error was the other request's.
   */
  guessed: Request | undefined;
}

/** `first`: the request that opens it, if a request does. */
function newSlot(answered: Answered | null | undefined, first?: Request): Slot {
  const toolCall = first === undefined || first.method === 'tools/call';
  return { toolCalls: new Queue(toolCall ? first : undefined), others: toolCall ? undefined : new Queue(first), answered, cancels: 0, cancelledBefore: 0, guessed: undefined };
}

/**
 * What an id holds in a session's Map: its Slot while a request of it is open, or once every request
 * of it is answered just the last one answered, which is all a Slot with nothing open still says (no
 * cancellation counts, nothing guessed, and no request can come before its `cancelledBefore`).
 */
type IdState = Slot | Answered;

function isSlot(state: IdState): state is Slot {
  return (state as Partial<Slot>).toolCalls !== undefined;
}

/**
 * The answered ids of a session that are small whole numbers, as clients count them (from 0 or 1),
 * out of its Map: per id the answered request's line and its (method, tool), as numbers in typed
 * arrays. A Map entry and a Slot kept for every id answered make a long transcript slower (the Map
 * growing, and the garbage collector walking it again and again) and larger. Made only for a
 * session whose Map grows large (`tableFrom`): for many sessions of a few calls, a table each costs
 * more than their Maps. An id is taken only while the table stays dense (below 64 +
 * 4 x the ids held here and in the Map), so that a few huge ids cannot make it huge; any other id
 * stays in the Map.
 */
class AnsweredIds {
  /** The answered request's line; 0 for an id not held (lines count from 1). */
  private lines = new Float64Array(0);
  /** 1 + its (method, tool)'s number in `kinds`. */
  private kindOf = new Uint32Array(0);
  private held = 0;

  /** `kinds` is the input's, shared by its sessions. */
  constructor(private readonly kinds: RequestKinds) {}

  /** Holds `answered` as `id`'s, when the id is one this table takes; `inMap`: the ids the session's Map holds. */
  add(id: IdKey, answered: Answered, inMap: number): boolean {
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= 64 + 4 * (this.held + inMap)) return false;
    if (id >= this.lines.length) this.grow(id);
    if (this.lines[id] === 0) this.held++;
    this.lines[id] = answered.line;
    this.kindOf[id] = this.kinds.number(answered.method, answered.tool) + 1;
    return true;
  }

  get(id: IdKey): Answered | undefined {
    if (typeof id !== 'number' || !(id >= 0 && id < this.lines.length) || !Number.isInteger(id) || this.lines[id] === 0) return undefined;
    const { method, tool } = this.kinds.at(this.kindOf[id]! - 1);
    return { method, tool, line: this.lines[id]! };
  }

  /** `id`'s answered request, no longer held here (a new request of the id makes it a Slot's). */
  take(id: IdKey): Answered | undefined {
    const answered = this.get(id);
    if (answered !== undefined) {
      this.lines[id as number] = 0;
      this.held--;
    }
    return answered;
  }

  private grow(id: number): void {
    const length = Math.max(16, 2 * this.lines.length, id + 1);
    const lines = new Float64Array(length);
    lines.set(this.lines);
    const kindOf = new Uint32Array(length);
    kindOf.set(this.kindOf);
    this.lines = lines;
    this.kindOf = kindOf;
  }

}

/**
 * A session's ids and what each holds. Ids that are small whole numbers, as clients count them, are
 * kept in an array by number, any other in a Map: each request sets a new id and its answer takes it
 * away, and in a Map that holds many requests left unanswered every such lookup lands somewhere new
 * in memory, where in the array it lands next to the last one. A number goes to the array while it
 * stays below 64 + 4 x the ids ever put there, so that a few huge ids cannot make it huge.
 */
class IdStates {
  private readonly numbered: (IdState | undefined)[] = [];
  private readonly others = new Map<IdKey, IdState>();
  private inArray = 0;
  private placed = 0;

  get size(): number {
    return this.inArray + this.others.size;
  }

  get(key: IdKey): IdState | undefined {
    if (typeof key === 'number' && key < this.numbered.length && key >= 0 && Number.isInteger(key)) {
      const state = this.numbered[key];
      if (state !== undefined) return state;
    }
    // An id may have gone to the Map before the array reached it.
    return this.others.size === 0 ? undefined : this.others.get(key);
  }

  has(key: IdKey): boolean {
    return this.get(key) !== undefined;
  }

  set(key: IdKey, state: IdState): void {
    if (typeof key !== 'number' || !Number.isInteger(key) || key < 0 || key >= 64 + 4 * (this.placed + 1)) {
      this.others.set(key, state);
      return;
    }
    if (this.others.size > 0) this.others.delete(key);
    const { numbered } = this;
    while (numbered.length <= key) numbered.push(undefined);
    if (numbered[key] === undefined) {
      this.inArray++;
      this.placed++;
    }
    numbered[key] = state;
  }

  delete(key: IdKey): void {
    if (typeof key === 'number' && key < this.numbered.length && key >= 0 && Number.isInteger(key) && this.numbered[key] !== undefined) {
      this.numbered[key] = undefined;
      this.inArray--;
    } else this.others.delete(key);
  }

  *values(): Iterable<IdState> {
    for (const state of this.numbered) if (state !== undefined) yield state;
    yield* this.others.values();
  }
}

/** The (method, tool) pairs of an input's requests, each given a number once. */
class RequestKinds {
  private readonly kinds: { method: string; tool: string | undefined }[] = [];
  private readonly numbers = new Map<string, Map<string | undefined, number>>();

  number(method: string, tool: string | undefined): number {
    let byTool = this.numbers.get(method);
    if (!byTool) this.numbers.set(method, (byTool = new Map()));
    let number = byTool.get(tool);
    if (number === undefined) {
      byTool.set(tool, (number = this.kinds.length));
      this.kinds.push({ method, tool });
    }
    return number;
  }

  at(number: number): { method: string; tool: string | undefined } {
    return this.kinds[number]!;
  }
}

interface Session {
  requests: IdStates;
  answered: AnsweredIds | undefined;
}

/** The size of a session's Map from which its ids answered go to an AnsweredIds table. */
const tableFrom = 256;

/**
 * `toolCallFirst`: the response is not shaped as another method's answer. `toolResult`: it is a
 * CallToolResult, known only when more than one request is open or a guess may be taken back.
 */
function answerOf(slot: Slot, toolCallFirst: boolean, toolResult: boolean, isError: boolean): Request | undefined {
  const { toolCalls, others } = slot;
  let request: Request | undefined;
  if (toolResult && toolCalls.size === 0 && slot.guessed && others && others.size > 0) {
    others.take();
    request = slot.guessed;
  } else {
    // MCP: a cancelled request should not be answered, so an answer is a later request's when one is open.
    const from = slot.cancelledBefore;
    request = toolCallFirst ? (toolCalls.size > 0 ? toolCalls.takeFrom(from) : others?.takeFrom(from)) : others && others.size > 0 ? others.takeFrom(from) : toolCalls.takeFrom(from);
  }
  // The guess stands while another method's request is open to have had the error, whatever answers
  // other tool calls meanwhile, so that no later tool result goes to the open ping (its envelope
  // skipped unchecked).
  if (isError && request?.method === 'tools/call' && others !== undefined && others.size > 0) slot.guessed = request;
  else if (request === slot.guessed || others === undefined || others.size === 0) slot.guessed = undefined;
  slot.cancels = Math.min(slot.cancels, openCount(slot));
  return request;
}

function openCount(slot: Slot): number {
  return slot.toolCalls.size + (slot.others?.size ?? 0);
}

const looksLikeToolResult = (result: unknown): boolean => isObject(result) && (Array.isArray(result['content']) || has(result, 'structuredContent'));

/**
 * A result that is a tool outcome when no request says whose it is (spec section 8.9): a log with its
 * requests filtered out still has its tool results checked, and a `resources/list` or `initialize`
 * answer is not one.
 */
const shapedAsToolOutcome = (result: unknown): boolean => isObject(result) && (has(result, 'content') || has(result, 'structuredContent') || has(result, 'ok'));

/**
 * An object that is neither a CallToolResult nor an envelope: ping's `{}`, roots/list's roots. Only
 * such a result goes to another method's request before a tool call, so that a JSON-RPC error (a
 * timed-out tool call) or a broken tool answer (an envelope with no content array) does not take the
 * ping's place and leave the ping's `{}` to be failed as the tool's envelope.
 */
const answersOtherMethod = (result: unknown): boolean => isObject(result) && !looksLikeToolResult(result) && !has(result, 'ok');

interface Where {
  line: number;
  entry: number;
  extracted: boolean;
  /** True for a transcript line's payload. A fixed shape: this object is made for every line. */
  inTranscript: boolean;
  /** The transcript line's sessionId. */
  sessionId: string | undefined;
  /**
   * The session the line's requests and responses pair in: its sessionId, also when that is a
   * number or a boolean (which is no session name to count, yet sessions 101 and 102 must not pair
   * as one, one's answer going to the other's tool), '' when there is none.
   */
  pairing: string | number | boolean;
  /** The id-less request this transcript response answers by order (spec section 8.1); set on transcript lines only. */
  byOrder?: Answered | undefined;
  /** The framed value's JSON text, from `textAt` on, and the members followed from it to this value: ids are read there. */
  text: string | undefined;
  textAt: number;
  path: readonly string[];
}

/** Where a transcript line's payload is in its text. */
const payloadPath = ['payload'];
const noPath: readonly string[] = [];

/**
 * The members followed to a call's `arguments` from a message at the framed value's root, then from
 * a transcript line's payload: made once, not per request.
 */
type ArgumentsPath = readonly [readonly string[], readonly string[]];
const paramsArguments: ArgumentsPath = [['params', 'arguments'], ['payload', 'params', 'arguments']];
const payloadArguments: ArgumentsPath = [['arguments'], ['payload', 'arguments']];

const truncationKey = 'truncated';

function isTruncationMarker(value: JsonObject): boolean {
  // Cheap test first: this runs on every transcript line (a read: see recognise()).
  if (value[truncationKey] === undefined) return false;
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key) && ++count > 1) return false;
  return count === 1 && has(value, truncationKey);
}

/** Shared by every record without wrapper findings; never written to. */
const noFindings: RecordFinding[] = [];

/**
 * A method that is no string reads as quote() has it: a container named, not printed. String() of a
 * deeply nested array (or JSON.stringify of it) would overflow the stack and fail the whole input.
 */
function methodText(method: unknown): string {
  return typeof method === 'string' ? method : quote(method);
}

/** What the lines before the first wrapped one left for the pairing: entries and unreadable lines counted. */
/**
 * A bare envelope as recognition takes one before anything else: an object with `ok` and neither a
 * transcript line's `direction` nor a JSON-RPC message's `jsonrpc` (the truncation marker has one
 * member, transcript lines and JSON-RPC messages have theirs). Members are read, not looked up
 * with has(): a framed value is JSON's, whose members are own and never undefined.
 */
export function isBareEnvelope(value: unknown): value is JsonObject {
  return isObject(value) && value['ok'] !== undefined && value['direction'] === undefined && value['jsonrpc'] === undefined;
}

interface Before {
  entries: number;
  unreadableCount: number;
  lastUnreadable: number;
}

/**
 * Spec section 7's recognition, one unwrapper per input. Most inputs are bare envelopes only, and
 * the pairing machinery's closures and maps are a real part of a small file's work: an input gets
 * it at its first value that is not a bare envelope.
 */
class AutoUnwrapper implements Unwrapper {
  private pairing: Unwrapper | undefined;
  private readonly before: Before = { entries: 0, unreadableCount: 0, lastUnreadable: 0 };

  constructor(
    private readonly context: CheckContext,
    private readonly calls: CallWatcher | undefined,
    private readonly textPlan: ScanPlan | undefined,
  ) {}

  unwrap(framed: FramedValue): Unwrapped {
    if (this.pairing) return this.pairing.unwrap(framed);
    // The common case, before anything is built for the line: a bare envelope whatever the order
    // in recognise() would say.
    const { value, extracted } = framed;
    if (isBareEnvelope(value)) {
      this.before.entries++;
      return { kind: 'record', envelope: value, hasEnvelope: true, envelopeText: undefined, wrapping: extracted === true ? 'log' : 'bare', tool: undefined, sessionId: undefined, findings: noFindings };
    }
    this.pairing = pairingUnwrapper(this.context, this.before, this.calls, this.textPlan);
    return this.pairing.unwrap(framed);
  }

  unreadable(line: number): void {
    if (this.pairing) return this.pairing.unreadable(line);
    this.before.unreadableCount++;
    this.before.lastUnreadable = line;
  }

  paired(): boolean {
    return this.pairing?.paired() ?? false;
  }

  finish(): Iterable<LateFinding> {
    return this.pairing?.finish() ?? [];
  }
}

/** `textPlan`: what the scanner builds of an envelope in a text block (src/framing/scan-text.ts); undefined: JSON.parse builds it whole. */
export function autoUnwrapper(context: CheckContext, calls?: CallWatcher, textPlan?: ScanPlan): Unwrapper {
  return new AutoUnwrapper(context, calls, textPlan);
}

/**
 * What a duplicate response says of the id and of the request it answered already: a function of
 * its own, not a closure in jsonRpc, which would be made anew for every message.
 */
function secondResponse(key: IdKey | undefined, id: unknown, request: Answered | undefined): string {
  return `a second response to id ${idText(key, quote(id))}${request ? ` (${shorten(request.tool ?? request.method)}, requested on line ${request.line})` : ''}`;
}

function pairingUnwrapper(context: CheckContext, before: Before, calls: CallWatcher | undefined, textPlan: ScanPlan | undefined): Unwrapper {
  // Per transcript session, by JSON-RPC id: a Map tells 7 from "7" itself, and no key string is
  // built per line.
  const sessions = new Map<string | number | boolean, Session>();
  const kinds = new RequestKinds();
  const sessionOf = (id: string | number | boolean): Session => {
    let session = sessions.get(id);
    if (!session) sessions.set(id, (session = { requests: new IdStates(), answered: undefined }));
    return session;
  };
  /** The entry of the truncation marker; an entry count, as a line cannot order a one-line `[request, marker]`. */
  let truncatedAt: number | undefined;
  let entries = before.entries;
  // Unparseable lines never reach the unwrapper, yet one may hold an answer or a request: pairing
  // findings name them rather than claim what the data does not show. No request was seen before.
  let unreadableCount = before.unreadableCount;
  let lastUnreadable = before.lastUnreadable;
  let mark: UnreadableMark = { before: unreadableCount, firstAfter: undefined };
  let markTaken = false;
  const order = new OrderPairing<Request>();
  /** The line of the input's first request (spec section 8.9: no response is unpaired before one). */
  let firstRequestLine: number | undefined;
  const idKeys = new IdKeys();

  /**
   * A JSON-RPC id as a key: only a string or a number is one (null answers an unreadable request); a
   * number by its value as written (id-key.ts). `name`: the member of the message (or of its params) that holds it.
   */
  function keyOf(id: unknown, where: Where, name: 'id' | 'requestId' = 'id', exact = false): IdKey | undefined {
    if (typeof id === 'string') return id;
    if (typeof id !== 'number') return undefined;
    // Every number of the text an integer JSON.parse keeps exact (numbersExact): the id is its value.
    if (exact) return id === 0 ? 0 : id;
    return idKeys.numeric(id, where.text, where.textAt, name === 'id' ? where.path : [...where.path, 'params'], name);
  }

  /** A `tools/call` request line, told to the recovery checks: its handle, kept until its first answer. */
  const callOf = (where: Where, tool: string | undefined, holder: unknown, path: ArgumentsPath, exact: boolean): object | undefined =>
    calls?.request({ pairing: where.pairing, tool, holder, text: where.text, textAt: where.textAt, exact, path: path[where.path === payloadPath ? 1 : 0], line: where.line, wrapping: where.inTranscript ? 'transcript' : 'jsonrpc' });

  /** The first response paired to `request`: its call, if any, is answered now and let go. */
  const firstAnswer = (request: Answered | undefined): void => {
    const call = (request as Partial<Request> | undefined)?.call;
    if (call === undefined) return;
    (request as Request).call = undefined;
    calls?.answered(call);
  };

  const finding = (rule: RuleId, message: string, pointer?: string): RecordFinding[] => {
    const made = ruleFinding(context, rule, { message, ...(pointer !== undefined && { pointer }) });
    return made ? [made] : [];
  };

  const wrappingOf = (where: Where, inner: Wrapping): Wrapping => (where.inTranscript ? 'transcript' : inner);

  // Records are built with every member present (undefined where unknown): one object shape for all
  // of them keeps the per-line code monomorphic.
  function noEnvelope(where: Where, wrapping: Wrapping, tool: string | undefined, findings: RecordFinding[]): Unwrapped {
    return { kind: 'record', envelope: undefined, hasEnvelope: false, envelopeText: undefined, wrapping, tool, sessionId: where.sessionId, findings };
  }

  function mcpRecord(result: unknown, where: Where, wrapping: Wrapping, tool?: string, findings: RecordFinding[] = []): Unwrapped {
    const unwrapped = unwrapCallToolResult(result, context.redact, textPlan);
    for (const { rule, ...report } of unwrapped.findings) {
      const made = ruleFinding(context, rule, report);
      if (made) findings.push(made);
    }
    return {
      kind: 'record',
      envelope: unwrapped.found ? unwrapped.envelope : undefined,
      hasEnvelope: unwrapped.found,
      envelopeText: unwrapped.found ? unwrapped.text : undefined,
      noDuplicates: unwrapped.found && unwrapped.noDuplicates,
      wrapping,
      tool,
      sessionId: where.sessionId,
      findings,
    };
  }

  let sawJsonRpc = false;

  function unlessUnreadableBefore(): string {
    if (unreadableCount === 0) return '';
    return unreadableCount === 1 ? `, unless line ${lastUnreadable}, which could not be read, holds it` : `, unless one of the ${unreadableCount} lines before it that could not be read (the last: line ${lastUnreadable}) holds it`;
  }

  /** `until`: the unreadable lines counted when the request could no longer be answered. */
  function unlessUnreadableAfter(seen: UnreadableMark, until = unreadableCount): string {
    const after = until - seen.before;
    if (after === 0) return '';
    return after === 1 ? `, unless line ${seen.firstAfter}, which could not be read, holds its answer` : `, unless one of the ${after} lines after it that could not be read (from line ${seen.firstAfter}) holds its answer`;
  }

  function jsonRpc(message: JsonObject, where: Where): Unwrapped {
    sawJsonRpc = true;
    // `"error": null` beside a result is JSON-RPC 1.0's success, which some stacks still send; and a
    // capture tool may copy `method` into the response. Either way a result makes it a response,
    // so that its envelope is checked, not skipped as an error's or a request's.
    const error = message['error'];
    const isError = error !== undefined && error !== null;
    const isResponse = isError || message['result'] !== undefined;
    const isRequest = !isResponse && message['method'] !== undefined;
    // One look at a request's text tells its id and its arguments exact as parsed; a response's id is
    // found on its text instead, which is mostly the text block's string (id-key.ts).
    const id = message['id'];
    const exact = isRequest && where.text !== undefined && (typeof id === 'number' || message['method'] === 'tools/call') && numbersExact(where.text, where.textAt);
    const key = keyOf(id, where, 'id', exact);
    const session = sessionOf(where.pairing);
    const { requests } = session;
    const wrapping = wrappingOf(where, 'jsonrpc');

    if (isRequest) {
      const method = methodText(message['method']);
      if (key !== undefined) {
        firstRequestLine ??= where.line;
        const params = message['params'];
        const name = method === 'tools/call' && isObject(params) ? params['name'] : undefined;
        const tool = typeof name === 'string' ? name : undefined;
        const call = method === 'tools/call' ? callOf(where, tool, params, paramsArguments, exact) : undefined;
        const request: Request = { method, tool, line: where.line, entry: where.entry, transcript: where.inTranscript, unreadable: mark, call };
        markTaken = true;
        const state = requests.get(key);
        if (state === undefined || !isSlot(state)) requests.set(key, newSlot(state ?? session.answered?.take(key), request));
        else if (method === 'tools/call') state.toolCalls.push(request);
        else if (state.others) state.others.push(request);
        else state.others = new Queue(request);
      } else if (method === 'notifications/cancelled' && isObject(message['params'])) {
        const cancelledKey = keyOf(message['params']['requestId'], where, 'requestId', exact);
        const state = cancelledKey === undefined ? undefined : requests.get(cancelledKey);
        const slot = state !== undefined && isSlot(state) ? state : undefined;
        if (slot && slot.cancels < openCount(slot) && ++slot.cancels === openCount(slot)) slot.cancelledBefore = where.entry;
      }
      return { kind: 'skipped', findings: [] };
    }
    if (where.byOrder !== undefined) return answeredByOrder(message, where, where.byOrder, key, isError, isResponse);

    const result = message['result'];
    const state = key === undefined ? undefined : (requests.get(key) ?? session.answered?.get(key));
    const slot = state !== undefined && isSlot(state) ? state : undefined;
    // Nearly always one open request an id: the result is looked at only when there are more, or when
    // an error's guess may be taken back.
    const open = slot ? openCount(slot) : 0;
    let request: Answered | undefined;
    if (state === undefined) request = undefined;
    else if (!isSlot(state)) request = state;
    else if (open === 0) request = state.answered ?? undefined;
    else if (open === 1 && !state.guessed) request = answerOf(state, true, false, isError);
    else request = answerOf(state, isError || !answersOtherMethod(result), !isError && looksLikeToolResult(result), isError);
    // Spec section 8.9: a duplicate only of an answer to a request the input holds. Responses to an id
    // no request had (a slot of responses only, answered null) are each unpaired: a log whose
    // requests were filtered out reuses ids at every restart and poll.
    const duplicate = state !== undefined && open === 0 && !(slot !== undefined && slot.answered === null);
    if (slot && open > 0) {
      firstAnswer(request);
      slot.answered = request;
      if (request !== undefined && key !== undefined && openCount(slot) === 0) {
        if (session.answered === undefined && requests.size >= tableFrom) session.answered = new AnsweredIds(kinds);
        if (session.answered?.add(key, request, requests.size)) requests.delete(key);
        else requests.set(key, request);
      }
    }
    // A response without a request leaves a slot, so that a second response to its id is unpaired too.
    else if (state === undefined && key !== undefined) requests.set(key, newSlot(null));
    const findings: RecordFinding[] = [];
    // A slot of responses only (answered null, nothing open): a second response to an id no request
    // had is as unpaired as the first (spec: "no request of the same id before it"). Only once the
    // input has held a request (spec section 8.9): before one, the requests were filtered out.
    const unpaired = state === undefined || (slot !== undefined && open === 0 && slot.answered === null);
    if (unpaired && where.inTranscript && firstRequestLine !== undefined && firstRequestLine < where.line) {
      // A null (or missing, or container) id can never be a request's: it is as unpaired as an id
      // no request had.
      const said =
        key !== undefined
          ? `response to id ${idText(key, quote(id))} has no request of that id before it in this transcript${unlessUnreadableBefore()}`
          : `response ${has(message, 'id') ? `with id ${quote(id)}` : 'without an id'} has no request before it in this transcript: only a string or a number id pairs with one`;
      findings.push(...finding('unpaired-response', said));
    }

    if (isError) {
      // A second answer is a record whatever it holds (spec section 7), so that `errors`, `invalid`
      // and JUnit's failures count its error finding alike. It holds no envelope
      // (outcome unknown), and answers nothing, so it is no protocol error of a request.
      if (duplicate) {
        findings.push(...finding('duplicate-response', `${secondResponse(key, id, request)}: a JSON-RPC error`));
        return noEnvelope(where, wrapping, request?.tool, findings);
      }
      // A transport fault, not a tool outcome (spec section 3, wrapping 3).
      return { kind: 'skipped', protocolError: true, wrapping, findings };
    }
    if (!isResponse) {
      const what = has(message, 'error') ? 'a JSON-RPC response with "error": null and no result' : 'a JSON-RPC message with neither method, result nor error';
      findings.push(...finding('not-an-envelope', `${what} holds no envelope`));
      return noEnvelope(where, wrapping, request?.tool, findings);
    }
    const isToolOutcome = request ? request.method === 'tools/call' : shapedAsToolOutcome(result);
    if (duplicate) {
      findings.push(...finding('duplicate-response', secondResponse(key, id, request)));
      // A second tools/list or initialize answer is no tool response: as with a second error, its
      // duplicate is the fault, not a missing envelope it was never meant to hold.
      if (!isToolOutcome) return noEnvelope(where, wrapping, request?.tool, findings);
    } else if (!isToolOutcome) {
      return { kind: 'skipped', wrapping, findings };
    }
    return mcpRecord(result, where, wrapping, request?.tool, findings);
  }

  /**
   * A transcript response that answers, by order, the id-less request before it (spec section 8.1):
   * never unpaired, nor a duplicate. Its id, unless a JSON-RPC request holds it, is then answered, so
   * that a later response to it is a duplicate as any other.
   */
  function answeredByOrder(message: JsonObject, where: Where, request: Answered, key: IdKey | undefined, isError: boolean, isResponse: boolean): Unwrapped {
    const wrapping = wrappingOf(where, 'jsonrpc');
    if (key !== undefined) {
      const session = sessionOf(where.pairing);
      const { requests } = session;
      if (!requests.has(key) && session.answered?.get(key) === undefined) {
        // Held as a JSON-RPC request's answered id is: in the table of small ids once the Map is large.
        if (session.answered === undefined && requests.size >= tableFrom) session.answered = new AnsweredIds(kinds);
        if (!session.answered?.add(key, request, requests.size)) requests.set(key, request);
      }
    }
    if (isError) return { kind: 'skipped', protocolError: true, wrapping, findings: [] };
    if (!isResponse) {
      const what = has(message, 'error') ? 'a JSON-RPC response with "error": null and no result' : 'a JSON-RPC message with neither method, result nor error';
      return noEnvelope(where, wrapping, request.tool, finding('not-an-envelope', `${what} holds no envelope`));
    }
    if (request.method !== 'tools/call') return { kind: 'skipped', wrapping, findings: [] };
    return mcpRecord(message['result'], where, wrapping, request.tool);
  }

  /** A transcript request whose payload is no JSON-RPC message (MCEC's `{name, arguments}`): the next line of its session answers it. */
  function waitForAnswer(lineMethod: unknown, payload: unknown, where: Where): void {
    sawJsonRpc = true;
    firstRequestLine ??= where.line;
    const { method, tool } = namedRequest(lineMethod, payload);
    const call = method === 'tools/call' ? callOf(where, tool, payload, payloadArguments, false) : undefined;
    order.wait(where.pairing, { method, tool, line: where.line, entry: where.entry, transcript: true, unreadable: mark, call });
    markTaken = true;
  }

  // Members of wrappings are read by name, not looked up with has(): a framed value is JSON's (parsed
  // or scanned), whose members are own and never undefined, and a read by a fixed name keeps its
  // inline cache where a lookup by a variable name goes generic.
  function recognise(value: unknown, where: Where): Unwrapped {
    if (isObject(value)) {
      if (!where.inTranscript && isTruncationMarker(value)) {
        truncatedAt = where.entry;
        // The marker is the transcript's last line (spec section 3, wrapping 4).
        return { kind: 'skipped', truncated: true, wrapping: 'transcript', findings: finding('transcript-truncated', `the transcript was cut off here: ${quote(value[truncationKey])}; later tool calls are missing`) };
      }
      if (!where.inTranscript && value['direction'] !== undefined && value['payload'] !== undefined) {
        const given = value['sessionId'];
        const sessionId = typeof given === 'string' ? given : undefined;
        const pairing = sessionId ?? (typeof given === 'number' || typeof given === 'boolean' ? given : '');
        const payload = value['payload'];
        const direction = value['direction'];
        const byOrder = order.settle(pairing, direction === 'response', where.line, unreadableCount);
        firstAnswer(byOrder);
        const inner: Where = { line: where.line, entry: where.entry, extracted: where.extracted, inTranscript: true, sessionId, pairing, byOrder, text: where.text, textAt: where.textAt, path: payloadPath };
        // A request line is never a record (spec section 8.1); one without a JSON-RPC payload is
        // answered by order, whatever its payload holds.
        if (direction === 'request' && !isJsonRpcPayload(payload)) {
          waitForAnswer(value['method'], payload, inner);
          return { kind: 'skipped', wrapping: 'transcript', findings: [] };
        }
        // Recognised in turn whatever it is, as an object payload is (spec section 7): a
        // non-object is a bare envelope, a schema-invalid record.
        return recognise(payload, inner);
      }
      if (value['jsonrpc'] !== undefined) return jsonRpc(value, where);
      if (isCallToolResult(value)) return mcpRecord(value, where, wrappingOf(where, 'mcp'), where.byOrder?.tool);
      // A report or baseline of an earlier run, written into the folder it checked: not a tool
      // outcome (`check evidence/` must not fail evidence/report.json for "missing required property ok").
      if (!where.inTranscript && isOwnArtifact(value)) return { kind: 'skipped', own: true, findings: [] };
      // Spec section 8.4: a log's own JSON lines (a server's structured log inside a client's) are
      // no tool results; extracted, an object with no envelope member is noise.
      if (where.extracted && !where.inTranscript && isMemberlessObject(value)) return { kind: 'skipped', findings: [] };
    }
    return {
      kind: 'record',
      envelope: value,
      hasEnvelope: true,
      envelopeText: undefined,
      wrapping: where.inTranscript ? 'transcript' : where.extracted ? 'log' : 'bare',
      tool: where.byOrder?.tool,
      sessionId: where.sessionId,
      findings: noFindings,
    };
  }

  /** Why an id-less request went unanswered: the next line of its session, and lines that could not be read. */
  function leftOpenSaid({ request, next, nextIsResponse, unreadableUntil }: LeftOpen<Request>): string {
    const unless = unlessUnreadableAfter(request.unreadable, unreadableUntil);
    // After it, only lines that could not be read: the usual "unless" alone says it.
    const why = next === undefined ? (unless === '' ? ': no line of its session follows it' : '') : nextIsResponse ? '' : `: the next line of its session, line ${next}, is no response`;
    return why + unless;
  }

  return {
    unwrap: ({ value, line, extracted, pairingKey, text, textAt }: FramedValue) => {
      const entry = entries++;
      // The common case first, as in AutoUnwrapper.
      if (isBareEnvelope(value)) {
        return { kind: 'record', envelope: value, hasEnvelope: true, envelopeText: undefined, wrapping: extracted === true ? 'log' : 'bare', tool: undefined, sessionId: undefined, findings: noFindings };
      }
      return recognise(value, { line, entry, extracted: extracted === true, inTranscript: false, sessionId: undefined, pairing: pairingKey ?? '', text, textAt: textAt ?? 0, path: noPath });
    },
    unreadable(line: number) {
      unreadableCount++;
      lastUnreadable = line;
      // No request holds the mark yet: it is moved past this line rather than made anew.
      if (!markTaken) return void (mark.before = unreadableCount);
      mark.firstAfter = line;
      mark = { before: unreadableCount, firstAfter: undefined };
      markTaken = false;
    },
    paired: () => sawJsonRpc,
    *finish() {
      const unanswered: { request: Request; left?: LeftOpen<Request> }[] = [];
      // Plain loops, not a generator and a spread per id: this runs for every id of the input.
      for (const { requests } of sessions.values()) {
        for (const slot of requests.values()) {
          if (!isSlot(slot)) continue;
          const open = [...slot.toolCalls.remaining(), ...(slot.others?.remaining() ?? [])].sort((a, b) => a.entry - b.entry);
          for (const request of open.slice(slot.cancels)) {
            if (!request.transcript) continue;
            if (truncatedAt !== undefined && request.entry < truncatedAt) continue;
            unanswered.push({ request });
          }
        }
      }
      order.finish(unreadableCount);
      for (const left of order.left) if (truncatedAt === undefined || left.request.entry >= truncatedAt) unanswered.push({ request: left.request, left });
      // In the order the requests came, not the Map's: an id answered leaves it, and comes back at
      // its end when asked again. Findings of one line (a `.json` array on one line) keep this order.
      unanswered.sort((a, b) => a.request.entry - b.request.entry);
      for (const { request, left } of unanswered) {
        const [made] = finding('unanswered-request', `${shorten(request.tool ?? request.method)} request is never answered in this transcript${left ? leftOpenSaid(left) : unlessUnreadableAfter(request.unreadable)}`);
        if (made) yield { line: request.line, finding: made, ...(request.tool !== undefined && { tool: request.tool }), wrapping: 'transcript' };
      }
    },
  };
}

/**
 * What `check --format json` and `--write-baseline` write: `tool` says whose it is. A line of
 * `--format ndjson` carries no tool: its `type` and the members only a finding or a summary of
 * ours has say it (a rule id, a severity; counts of records and inputs).
 */
function isOwnArtifact(value: JsonObject): boolean {
  const tool = value['tool'];
  if (has(value, 'reportVersion')) return isObject(tool) && tool['name'] === 'mcec-result';
  if (has(value, 'baselineVersion')) return tool === 'mcec-result';
  const type = value['type'];
  if (type === 'finding') return typeof value['rule'] === 'string' && isRuleId(value['rule']) && (value['severity'] === 'error' || value['severity'] === 'warning') && typeof value['source'] === 'string';
  return type === 'summary' && typeof value['records'] === 'number' && typeof value['inputs'] === 'number' && isObject(value['outcomes']);
}

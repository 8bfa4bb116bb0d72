// Agent recovery (spec section 9): what the agent did after each failure. One tracker per input (per
// reading of a followed file), fed in line order: unwrap reports each `tools/call` request and the
// first response paired to it, the checker each response's outcome. It finds `unchanged-retry` on
// the line being read, `repeated-failure` when a streak ends (at an earlier line), and counts each
// failure's next call into the tally's recovery table.
import { ruleFinding, type CheckContext } from '../checks/check-envelope.js';
import { isObject, quote, type EnvelopeFacts } from '../checks/envelope.js';
import { numbersExact } from '../framing/member-text.js';
import type { RecoveryCount, Tally } from '../tally.js';
import type { RecordFinding, Wrapping } from '../types.js';
import type { CallLine, CallWatcher } from '../unwrap/types.js';
import { argumentsKey, callKey } from './call-key.js';
import { canonicalArguments, numberFree, parsedIsExact, sameArguments } from './canonical.js';
import { canonicalDigest } from './digest.js';

/** Where a recovery finding sits and what a baseline matches it on (spec section 9, "Both"). */
export interface CallPlace {
  line: number;
  tool: string | undefined;
  wrapping: Wrapping;
  /** The failure's `error.code`. */
  code: string | undefined;
  /** The digest of the call's tool and canonical arguments. */
  digest: string | undefined;
}

/** Where the tracker's findings go: the checker of the input. */
export interface RecoverySink {
  /** A finding on the line being read (the request line of the call it concerns). */
  current(finding: RecordFinding, place: CallPlace): void;
  /** A finding on an earlier line, final now (a streak ended). */
  ended(finding: RecordFinding, place: CallPlace): void;
}

/**
 * A call while its request is open or its failure may still be compared: its tool and the key of
 * its canonical arguments only, never its arguments (spec section 9, "Memory"), but for the last few
 * calls of an input (see `lazyCalls`). `seq` is its place among its session's calls.
 */
interface Call {
  session: Session;
  tool: string | undefined;
  /** The key of its canonical arguments (call-key.ts), made when it lets its arguments go, or is compared with a call that has. */
  key: string | undefined;
  /** The baseline digest of its tool and arguments (digest.ts), made only for a finding, and only when baselines are read or written. */
  digest: string | undefined;
  seq: number;
  line: number;
  /** `open`, `afterSameTool` and `inTranscript` bits: an unanswered call is held until the input ends, in as few fields as it can be. */
  flags: number;
  /** Its parsed arguments, from which both are made, while it holds them (exact, or `unchecked`); else `notHeld`. */
  parsed: unknown;
  /**
   * Its request line while it holds arguments whose exactness no look has told yet (see `settleExact`):
   * most calls are answered and let go without ever being compared or keyed.
   */
  unchecked: CallLine | undefined;
}

/** Set until its first answer is read. */
const open = 1;
/** The session's call before it has the same tool: it may be a streak's third call. */
const afterSameTool = 2;
/** Its line is a transcript's (else JSON-RPC's). */
const inTranscript = 4;
/** The arguments of a call that holds none (`undefined` is a call's with no arguments). */
const notHeld: unknown = Symbol('not held');

const wrappingOf = (call: Call): Wrapping => (call.flags & inTranscript ? 'transcript' : 'jsonrpc');
const held = (call: Call): boolean => call.parsed !== notHeld;

/**
 * Calls of an input whose key is made only when it is compared, and digest only for a finding:
 * most calls are answered at once and do not fail, most failures are followed by another tool, and
 * then neither is. The last `lazyCalls` calls may hold their parsed arguments meanwhile; an older one
 * still holding them gets its key and digest, and lets them go, so that no more than these are ever
 * held, however many requests stay open.
 */
const lazyCalls = 32;
/** A line longer than this has its call's key and digest made at once: its arguments are not held. */
const lazyLineChars = 64 * 1024;

/**
 * Whether a call's parsed arguments are what its line wrote (JSON.parse rounded none of their
 * numbers), so that they may be held and compared as they are, known without reading its text:
 * there is none, unwrap read it so already, or the arguments hold no number.
 */
function exactAsParsed(line: CallLine, parsed: unknown): boolean {
  return line.text === undefined || line.exact || numberFree(parsed);
}

/**
 * The same, read from the line's text: its one pattern (numbersExact) costs less than the walk to
 * its arguments, which is left for a line with a number that pattern does not take.
 */
function textSaysExact(line: CallLine): boolean {
  return numbersExact(line.text!, line.textAt) || parsedIsExact(line.text!, line.textAt);
}

/** A failure waiting for the next call of its session. */
interface Failure {
  line: number;
  call: Call;
  category: string;
  code: string | undefined;
  /** Its call is the n-th of a streak (0: none): an unchanged retry is reported after the first only. */
  inStreak: number;
  /** The truncation markers read before it: one read after it makes its session's end a cut-off. */
  markers: number;
}

/** Consecutive calls of a session that are the same call, each failing with the same string code. */
interface Streak {
  /** Its first call: every call of it is the same call. */
  call: Call;
  /** The third call's baseline digest, once there is one (all its calls are the same call). */
  digest: string | undefined;
  code: string;
  category: string | undefined;
  count: number;
  /** The seq of its last call: the next call of the session continues it or ends it. */
  lastSeq: number;
  firstLine: number;
  lastLine: number;
  thirdLine: number;
  wrapping: Wrapping;
}

interface Session {
  seq: number;
  /** The tool of its last call. */
  lastTool: string | undefined;
  /** Failures whose next call has not come; nearly always none or one. */
  waiting: Failure[];
  streak: Streak | undefined;
}

/** The sessions of one pairing key: the one of calls with no string `arguments.sessionId`, and those by it. */
interface Pairing {
  plain: Session | undefined;
  routed: Map<string, Session> | undefined;
}

const noFailures: Failure[] = [];

export class RecoveryTracker implements CallWatcher {
  private readonly pairings = new Map<CallLine['pairing'], Pairing>();
  /** Every session, in the order they began. */
  private readonly sessions: Session[] = [];
  /** The call the line being read is the first response of. */
  private answering: Call | undefined;
  private markers = 0;
  /** The last calls, oldest first from `lazyHead`; those still lazy hold their arguments. */
  private readonly lazy: Call[] = [];
  private lazyHead = 0;

  constructor(
    private readonly context: CheckContext,
    private readonly tally: Tally,
    private readonly sink: RecoverySink,
    /** Whether findings carry their call's digest: only a run that reads or writes a baseline matches on it. */
    private readonly digests = true,
  ) {}

  /** A call's session: the input, its pairing key and its `arguments.sessionId` when a string (spec section 9). */
  private sessionOf(pairing: CallLine['pairing'], args: unknown): Session {
    const routed = isObject(args) && typeof args['sessionId'] === 'string' ? args['sessionId'] : undefined;
    let sessions = this.pairings.get(pairing);
    if (sessions === undefined) this.pairings.set(pairing, (sessions = { plain: undefined, routed: undefined }));
    if (routed === undefined) return (sessions.plain ??= this.newSession());
    sessions.routed ??= new Map();
    let session = sessions.routed.get(routed);
    if (session === undefined) sessions.routed.set(routed, (session = this.newSession()));
    return session;
  }

  private newSession(): Session {
    const session: Session = { seq: 0, lastTool: undefined, waiting: noFailures, streak: undefined };
    this.sessions.push(session);
    return session;
  }

  request(line: CallLine): object {
    const parsed = isObject(line.holder) ? line.holder['arguments'] : undefined;
    const session = this.sessionOf(line.pairing, parsed);
    const flags = open | (line.tool !== undefined && line.tool === session.lastTool ? afterSameTool : 0) | (line.wrapping === 'transcript' ? inTranscript : 0);
    const call: Call = { session, tool: line.tool, key: undefined, digest: undefined, seq: ++session.seq, line: line.line, flags, parsed: notHeld, unchecked: undefined };
    session.lastTool = line.tool;
    if (line.tool !== undefined) {
      if (exactAsParsed(line, parsed)) this.hold(call, parsed);
      // Held with its line, which goes when the call leaves the last `lazyCalls` (letGo) if not before.
      else if (line.text!.length <= lazyLineChars) (call.unchecked = line), this.hold(call, parsed);
      // Numbers JSON.parse may have changed are read from a long line's text at once: it is not held.
      else this.identify(call, canonicalArguments(parsed, line.text, line.path, line.textAt));
    }
    const { waiting, streak } = session;
    let retried: Failure | undefined;
    for (const failure of waiting) {
      const same = this.sameCall(failure.call, call);
      this.count(failure.category, same ? 'sameCall' : failure.call.tool !== undefined && failure.call.tool === call.tool ? 'changedArguments' : 'otherTool', call.tool);
      if (same && retried === undefined && failure.inStreak <= 1 && this.discouraged(failure.category, failure.code)) retried = failure;
    }
    if (waiting.length > 0) session.waiting = noFailures;
    if (retried !== undefined) this.unchangedRetry(call, retried);
    // Any other call of the session ends a streak; the same call continues it only if it fails alike.
    if (streak && (call.seq > streak.lastSeq + 1 || !this.sameCall(streak.call, call))) this.endStreak(session);
    // A failure compared is done with: its call's arguments are let go, unless its streak goes on.
    for (const failure of waiting) if (failure.call !== session.streak?.call) this.release(failure.call);
    return call;
  }

  answered(call: object): void {
    this.answering = call as Call;
  }

  /** Whether two calls are the same call: both tools strings and equal, and equal canonical arguments. */
  private sameCall(a: Call, b: Call): boolean {
    if (a.tool === undefined || a.tool !== b.tool) return false;
    this.settleExact(a);
    this.settleExact(b);
    // Both still hold their arguments, exact: compared as they are, no key made.
    const equal = held(a) && held(b) ? sameArguments(a.parsed, b.parsed) : undefined;
    return equal ?? this.keyOf(a) === this.keyOf(b);
  }

  private hold(call: Call, parsed: unknown): void {
    call.parsed = parsed;
    const { lazy } = this;
    lazy.push(call);
    if (lazy.length - this.lazyHead <= lazyCalls) return;
    const oldest = lazy[this.lazyHead]!;
    lazy[this.lazyHead++] = undefined as unknown as Call;
    this.settleExact(oldest);
    if (held(oldest)) this.letGo(oldest);
    if (this.lazyHead >= lazyCalls) lazy.splice(0, this.lazyHead), (this.lazyHead = 0);
  }

  /**
   * A call past the last `lazyCalls` that still holds its arguments: its key is made, in case it is
   * compared later, and its digest if a finding may still need it: the call is unanswered and may be
   * a streak's third call (a streak's finding is known by its third call's digest). Then its
   * arguments are let go.
   */
  private letGo(call: Call): void {
    if (this.digests && call.digest === undefined && (call.flags & (open | afterSameTool)) === (open | afterSameTool)) {
      const canonical = canonicalArguments(call.parsed, undefined, []);
      call.key ??= callKey(canonical);
      call.digest = canonicalDigest(call.tool!, canonical);
    } else call.key ??= argumentsKey(call.parsed);
    this.release(call);
  }

  /**
   * Reads the line of a call held `unchecked` (textSaysExact). Where JSON.parse rounded a number of
   * its arguments, its key and digest are made from that text now, and its arguments let go.
   */
  private settleExact(call: Call): void {
    const line = call.unchecked;
    if (line === undefined) return;
    call.unchecked = undefined;
    if (held(call) && !textSaysExact(line)) this.identify(call, canonicalArguments(call.parsed, line.text, line.path, line.textAt));
  }

  /** A call's key and digest from its canonical arguments, made now; its arguments let go. */
  private identify(call: Call, canonical: string): void {
    call.key ??= callKey(canonical);
    if (this.digests) call.digest ??= canonicalDigest(call.tool!, canonical);
    this.release(call);
  }

  /** A call's key, made now from the arguments it holds if it has none yet. */
  private keyOf(call: Call): string | undefined {
    this.settleExact(call);
    if (call.key === undefined && held(call)) call.key = argumentsKey(call.parsed);
    return call.key;
  }

  /** A call's baseline digest, made now from the arguments it holds if it has none yet. */
  private digestOf(call: Call): string | undefined {
    this.settleExact(call);
    if (this.digests && call.digest === undefined && held(call)) call.digest = canonicalDigest(call.tool!, canonicalArguments(call.parsed, undefined, []));
    return call.digest;
  }

  /** A call that is compared no more, or whose key and digest are made: its arguments let go. */
  private release(call: Call): void {
    call.parsed = notHeld;
    call.unchecked = undefined;
  }

  /**
   * The entry just read is over: `facts` are its envelope's when it was a record. A first response
   * is a failure when its outcome is `failed`, whatever else it holds (spec section 9).
   */
  entryDone(facts: EnvelopeFacts | undefined, responseLine: number): void {
    const call = this.answering;
    if (call === undefined) return;
    this.answering = undefined;
    call.flags &= ~open;
    if (facts !== undefined && facts.ok === false) {
      this.failed(call, facts, responseLine);
      return;
    }
    // No failure: its key is never needed.
    this.release(call);
    // An answer that is no failure ends a streak it would have continued.
    if (call.session.streak?.lastSeq === call.seq - 1) this.endStreak(call.session);
  }

  /** The truncation marker: every streak ends; failures waiting until the end are cut off. */
  truncated(): void {
    this.markers++;
    for (const session of this.sessions) if (session.streak) this.endStreak(session);
  }

  /**
   * The input's end (or a followed file's restart): streaks end, and each failure no call followed
   * is counted as `end`, or `cutOff` when a marker came after it or the reading was cut short.
   */
  finish(cutShort: boolean): void {
    for (const session of this.sessions) {
      if (session.streak) this.endStreak(session);
      for (const failure of session.waiting) this.count(failure.category, cutShort || this.markers > failure.markers ? 'cutOff' : 'end', undefined);
      session.waiting = noFailures;
    }
    this.sessions.length = 0;
    this.pairings.clear();
  }

  private failed(call: Call, facts: EnvelopeFacts, line: number): void {
    const { session } = call;
    const { code, category } = facts;
    let streak = session.streak;
    let inStreak = 0;
    if (streak && call.seq === streak.lastSeq + 1 && code === streak.code && this.sameCall(streak.call, call)) {
      inStreak = ++streak.count;
      streak.lastSeq = call.seq;
      streak.lastLine = line;
      if (streak.count === 3) (streak.thirdLine = call.line), (streak.digest = this.digestOf(call));
    } else if (!streak || call.seq > streak.lastSeq) {
      if (streak) this.endStreak(session);
      if (code !== undefined && call.tool !== undefined) {
        streak = { call, digest: undefined, code, category, count: 1, lastSeq: call.seq, firstLine: call.line, lastLine: line, thirdLine: 0, wrapping: wrappingOf(call) };
        session.streak = streak;
        inStreak = 1;
      }
    }
    // Only a string category has a row of the table (spec section 9, "The recovery table").
    if (category !== undefined) {
      const failure: Failure = { line, call, category, code, inStreak, markers: this.markers };
      if (session.waiting === noFailures) session.waiting = [failure];
      else session.waiting.push(failure);
    } else if (session.streak?.call !== call) this.release(call);
  }

  /** Whether the advice of `category` is against retrying unchanged after a failure with `code`. */
  private discouraged(category: string, code: string | undefined): boolean {
    const advice = this.context.registry.recovery(category);
    return advice !== undefined && advice.noUnchangedRetry && !(code !== undefined && advice.retryCodes.includes(code));
  }

  private adviceOf(category: string | undefined): string {
    const advice = category === undefined ? undefined : this.context.registry.recovery(category)?.advice;
    return advice === undefined ? '' : `: ${advice}`;
  }

  private unchangedRetry(call: Call, failure: Failure): void {
    const code = failure.code === undefined ? '' : ` (code ${quote(failure.code)})`;
    const message = `retried unchanged after the ${quote(failure.category)} failure on line ${failure.line}${code}${this.adviceOf(failure.category)}`;
    const finding = ruleFinding(this.context, 'unchanged-retry', { message });
    if (finding) this.sink.current(finding, { line: call.line, tool: call.tool, wrapping: wrappingOf(call), code: failure.code, digest: this.digestOf(call) });
  }

  private endStreak(session: Session): void {
    const streak = session.streak!;
    session.streak = undefined;
    // Its first call is compared no more once no failure of its session waits on it: its arguments
    // go now, not as an older call's, keyed first (letGo).
    if (!session.waiting.some((failure) => failure.call === streak.call)) this.release(streak.call);
    if (streak.count < 3) return;
    const category = streak.category === undefined ? '' : ` (${quote(streak.category)})`;
    const message = `the same call failed ${streak.count} times in a row with code ${quote(streak.code)}${category}, lines ${streak.firstLine} to ${streak.lastLine}${this.adviceOf(streak.category)}`;
    const finding = ruleFinding(this.context, 'repeated-failure', { message });
    if (finding) this.sink.ended(finding, { line: streak.thirdLine, tool: streak.call.tool, wrapping: streak.wrapping, code: streak.code, digest: streak.digest });
  }

  private count(category: string, what: RecoveryCount, next: string | undefined): void {
    this.tally.addRecovery(category, what, next);
  }
}

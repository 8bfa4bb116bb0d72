// Agent recovery (spec section 9): what the agent did after each failure. One tracker per input (per
// reading of a followed file), fed in line order: unwrap reports each `tools/call` request and the
// first response paired to it, the checker each response's outcome. It finds `unchanged-retry` on
// the line being read, `repeated-failure` when a streak ends (at an earlier line), and counts each
// failure's next call into the tally's recovery table.
import { ruleFinding, type CheckContext } from '../checks/check-envelope.js';
import { isObject, quote, type EnvelopeFacts } from '../checks/envelope.js';
import type { RecoveryCount, Tally } from '../tally.js';
import type { RecordFinding, Wrapping } from '../types.js';
import type { CallLine, CallWatcher } from '../unwrap/types.js';
import { parsedIsExact } from './canonical.js';
import { callDigest } from './digest.js';

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
 * A call while its request is open: its tool and the digest only, never its arguments (spec section
 * 9, "Memory"), but for the last few calls of an input (see `Lazy`). `seq` is its place among its
 * session's calls.
 */
interface Call {
  session: Session;
  tool: string | undefined;
  digest: string | undefined;
  seq: number;
  line: number;
  wrapping: Wrapping;
  /** Set while its digest is not made yet: its parsed arguments, exact (parsedIsExact). */
  lazy: boolean;
  parsed: unknown;
}

/**
 * Calls of an input whose digest is made only when it is needed: most calls are answered at once
 * and do not fail, and then none is. The last `lazyCalls` calls may hold their parsed arguments
 * meanwhile; an older one still open gets its digest, and lets them go, so that no more than these
 * are ever held, however many requests stay open.
 */
const lazyCalls = 32;
/** A line longer than this has its call's digest made at once: its arguments are not held. */
const lazyLineChars = 64 * 1024;

/** A failure waiting for the next call of its session. */
interface Failure {
  line: number;
  tool: string | undefined;
  digest: string | undefined;
  category: string;
  code: string | undefined;
  /** Its call is the n-th of a streak (0: none): an unchanged retry is reported after the first only. */
  inStreak: number;
  /** The truncation markers read before it: one read after it makes its session's end a cut-off. */
  markers: number;
}

/** Consecutive calls of a session that are the same call, each failing with the same string code. */
interface Streak {
  tool: string;
  digest: string;
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
  /** Failures whose next call has not come; nearly always none or one. */
  waiting: Failure[];
  streak: Streak | undefined;
}

export class RecoveryTracker implements CallWatcher {
  private readonly sessions = new Map<string, Session>();
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
  ) {}

  /** A call's session: the input, its pairing key and its `arguments.sessionId` when a string (spec section 9). */
  private sessionOf(pairing: CallLine['pairing'], holder: unknown): Session {
    const args = isObject(holder) ? holder['arguments'] : undefined;
    const routed = isObject(args) && typeof args['sessionId'] === 'string' ? args['sessionId'] : undefined;
    const key = routed === undefined && typeof pairing === 'string' ? pairing : JSON.stringify([pairing, routed ?? null]);
    let session = this.sessions.get(key);
    if (session === undefined) this.sessions.set(key, (session = { seq: 0, waiting: [], streak: undefined }));
    return session;
  }

  request(line: CallLine): object {
    const session = this.sessionOf(line.pairing, line.holder);
    const call: Call = { session, tool: line.tool, digest: undefined, seq: ++session.seq, line: line.line, wrapping: line.wrapping, lazy: false, parsed: undefined };
    if (line.tool !== undefined) {
      const parsed = isObject(line.holder) ? line.holder['arguments'] : undefined;
      const { text } = line;
      // Compared at once with a failure or a streak of its session; else made when it fails, if it does.
      const needed = session.waiting.length > 0 || session.streak !== undefined;
      if (needed || text === undefined || text.length > lazyLineChars || !parsedIsExact(text, line.textAt)) call.digest = callDigest(line.tool, parsed, text, line.path, line.textAt);
      else this.holdLazily(call, parsed);
    }
    let retried: Failure | undefined;
    for (const failure of session.waiting) {
      const same = call.digest !== undefined && failure.digest === call.digest;
      this.count(failure.category, same ? 'sameCall' : failure.tool !== undefined && failure.tool === call.tool ? 'changedArguments' : 'otherTool', call.tool);
      if (same && retried === undefined && failure.inStreak <= 1 && this.discouraged(failure.category, failure.code)) retried = failure;
    }
    session.waiting = [];
    if (retried !== undefined) this.unchangedRetry(call, retried);
    const streak = session.streak;
    // Any other call of the session ends a streak; the same call continues it only if it fails alike.
    if (streak && (call.seq > streak.lastSeq + 1 || call.digest !== streak.digest)) this.endStreak(session);
    return call;
  }

  answered(call: object): void {
    this.answering = call as Call;
  }

  private holdLazily(call: Call, parsed: unknown): void {
    call.lazy = true;
    call.parsed = parsed;
    const { lazy } = this;
    lazy.push(call);
    if (lazy.length - this.lazyHead <= lazyCalls) return;
    const oldest = lazy[this.lazyHead]!;
    lazy[this.lazyHead++] = undefined as unknown as Call;
    if (oldest.lazy) this.digestOf(oldest);
    if (this.lazyHead >= lazyCalls) lazy.splice(0, this.lazyHead), (this.lazyHead = 0);
  }

  /** A lazy call's digest, made now; its arguments let go. */
  private digestOf(call: Call): string | undefined {
    if (call.lazy) {
      call.digest = callDigest(call.tool!, call.parsed, undefined, []);
      call.lazy = false;
      call.parsed = undefined;
    }
    return call.digest;
  }

  /**
   * The entry just read is over: `facts` are its envelope's when it was a record. A first response
   * is a failure when its outcome is `failed`, whatever else it holds (spec section 9).
   */
  entryDone(facts: EnvelopeFacts | undefined, responseLine: number): void {
    const call = this.answering;
    if (call === undefined) return;
    this.answering = undefined;
    if (facts !== undefined && facts.ok === false) {
      this.digestOf(call);
      this.failed(call, facts, responseLine);
      return;
    }
    // No failure: its digest is never needed.
    call.lazy = false;
    call.parsed = undefined;
    // An answer that is no failure ends a streak it would have continued.
    if (call.session.streak?.lastSeq === call.seq - 1) this.endStreak(call.session);
  }

  /** The truncation marker: every streak ends; failures waiting until the end are cut off. */
  truncated(): void {
    this.markers++;
    for (const session of this.sessions.values()) if (session.streak) this.endStreak(session);
  }

  /**
   * The input's end (or a followed file's restart): streaks end, and each failure no call followed
   * is counted as `end`, or `cutOff` when a marker came after it or the reading was cut short.
   */
  finish(cutShort: boolean): void {
    for (const session of this.sessions.values()) {
      if (session.streak) this.endStreak(session);
      for (const failure of session.waiting) this.count(failure.category, cutShort || this.markers > failure.markers ? 'cutOff' : 'end', undefined);
      session.waiting = [];
    }
    this.sessions.clear();
  }

  private failed(call: Call, facts: EnvelopeFacts, line: number): void {
    const { session } = call;
    const { code, category } = facts;
    let streak = session.streak;
    let inStreak = 0;
    if (streak && call.seq === streak.lastSeq + 1 && call.digest === streak.digest && code === streak.code) {
      inStreak = ++streak.count;
      streak.lastSeq = call.seq;
      streak.lastLine = line;
      if (streak.count === 3) streak.thirdLine = call.line;
    } else if (!streak || call.seq > streak.lastSeq) {
      if (streak) this.endStreak(session);
      if (code !== undefined && call.digest !== undefined && call.tool !== undefined) {
        streak = { tool: call.tool, digest: call.digest, code, category, count: 1, lastSeq: call.seq, firstLine: call.line, lastLine: line, thirdLine: 0, wrapping: call.wrapping };
        session.streak = streak;
        inStreak = 1;
      }
    }
    // Only a string category has a row of the table (spec section 9, "The recovery table").
    if (category !== undefined) session.waiting.push({ line, tool: call.tool, digest: call.digest, category, code, inStreak, markers: this.markers });
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
    if (finding) this.sink.current(finding, { line: call.line, tool: call.tool, wrapping: call.wrapping, code: failure.code, digest: call.digest });
  }

  private endStreak(session: Session): void {
    const streak = session.streak!;
    session.streak = undefined;
    if (streak.count < 3) return;
    const category = streak.category === undefined ? '' : ` (${quote(streak.category)})`;
    const message = `the same call failed ${streak.count} times in a row with code ${quote(streak.code)}${category}, lines ${streak.firstLine} to ${streak.lastLine}${this.adviceOf(streak.category)}`;
    const finding = ruleFinding(this.context, 'repeated-failure', { message });
    if (finding) this.sink.ended(finding, { line: streak.thirdLine, tool: streak.tool, wrapping: streak.wrapping, code: streak.code, digest: streak.digest });
  }

  private count(category: string, what: RecoveryCount, next: string | undefined): void {
    this.tally.addRecovery(category, what, next);
  }
}

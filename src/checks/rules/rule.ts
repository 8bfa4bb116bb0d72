import type { CodeRegistry } from '../../registry/registry.js';
import type { RuleInfo } from '../../types.js';
import type { EnvelopeFacts } from '../envelope.js';

/** What a rule may report for one envelope; the runner adds the rule id and severity. */
export interface RuleReport {
  message: string;
  pointer?: string;
  suggestion?: string;
}

export interface RuleContext {
  registry: CodeRegistry;
}

/** A contract rule the schema cannot express, checked on every envelope. */
export interface EnvelopeRule extends RuleInfo {
  /** Appends what it finds to `out` (an array the runner reuses: no closure per record). */
  check(envelope: EnvelopeFacts, context: RuleContext, out: RuleReport[]): void;
}

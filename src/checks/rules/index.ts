// Every rule of spec section 5, in the order reports, SARIF and the docs list them: the one list
// that `RuleId` (src/types.ts), the catalog, `explain`, SARIF's rules and the report schema's
// `rule` enum follow (test/rule-pages.test.ts holds the schema and the docs pages to it).
import { bundleSessionMismatch } from './bundle-session-mismatch.js';
import { bundleTruncationMismatch } from './bundle-truncation-mismatch.js';
import { codeCategoryMismatch } from './code-category-mismatch.js';
import { codeFormat } from './code-format.js';
import { duplicateMember } from './duplicate-member.js';
import { duplicateResponse } from './duplicate-response.js';
import { emptyInput } from './empty-input.js';
import { inlineImage } from './inline-image.js';
import { isErrorMismatch } from './is-error-mismatch.js';
import { missingResult } from './missing-result.js';
import { noToolResults } from './no-tool-results.js';
import { notAnEnvelope } from './not-an-envelope.js';
import { parseError } from './parse-error.js';
import { repeatedFailure } from './repeated-failure.js';
import { resultOnFailure } from './result-on-failure.js';
import { schema } from './schema.js';
import { structuredContentMismatch } from './structured-content-mismatch.js';
import { transcriptTruncated } from './transcript-truncated.js';
import { unansweredRequest } from './unanswered-request.js';
import { unchangedRetry } from './unchanged-retry.js';
import { unknownCode } from './unknown-code.js';
import { unknownWarningCode } from './unknown-warning-code.js';
import { unpairedResponse } from './unpaired-response.js';

export const rules = [
  parseError,
  schema,
  resultOnFailure,
  isErrorMismatch,
  notAnEnvelope,
  unknownCode,
  unknownWarningCode,
  codeCategoryMismatch,
  codeFormat,
  missingResult,
  inlineImage,
  transcriptTruncated,
  unpairedResponse,
  unansweredRequest,
  duplicateResponse,
  structuredContentMismatch,
  emptyInput,
  noToolResults,
  bundleSessionMismatch,
  bundleTruncationMismatch,
  duplicateMember,
  unchangedRetry,
  repeatedFailure,
] as const;

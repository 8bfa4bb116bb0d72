// Which parser frames a line-delimited input's lines: the validating scanner (scan.ts), building
// what a plan asks, or the reference path (decode, then JSON.parse), which the differential tests
// hold it to.

export type Parser = 'scan' | 'reference';

/**
 * The parser of this process: `MCEC_RESULT_PARSER=reference` picks the reference path, for the
 * differential tests and the bench; anything else, the scanner. Read here only.
 */
export function chosenParser(): Parser {
  return process.env['MCEC_RESULT_PARSER'] === 'reference' ? 'reference' : 'scan';
}

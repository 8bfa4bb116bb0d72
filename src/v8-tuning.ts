// V8 settings the command line makes for its own process; the library leaves its caller's V8 alone.
import { loadV8 } from './lazy.js';

/**
 * V8 keeps at most four object shapes (hidden classes) per property read site in its inline caches;
 * past that, every read there takes the generic, hashed lookup. Envelopes parsed from JSON have a
 * shape per member order: a log's valid records have four, its invalid ones bring more, and from
 * the first of those on every member read of the validator, the rules and the tally was generic
 * (perf: ~4 % of a 1M-line `--jobs 1` run, gone with the invalid lines moved to the end). Sixteen
 * shapes a site: that run 4-7 % faster in paired runs, the same report.
 *
 * For a run on this thread alone, and once the bundle is loaded: V8 checks every code cache against
 * the flags it was made with, Node's cache of its own modules too, so a changed flag made a worker
 * thread's start ~40 ms slower (Node's modules compiled afresh in it): a 20 MB file in the default
 * mode took 6 % longer, 10k small files 2 %, more than the flag gave the two threads back.
 */
export function raiseShapeLimit(): void {
  loadV8().setFlagsFromString('--max-valid-polymorphic-map-count=16');
}

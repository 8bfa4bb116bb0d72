// Reports `merge` reads may come from earlier versions of the checker: what they lack of today's
// shape, where it can be derived, is filled in before the report schema judges them.
import { isObject } from './checks/envelope.js';

/**
 * `summary.tools` and `summary.sessions` entries count `records` and `unknown` (spec section 8.6);
 * a report of an earlier version holds a tool's ok and failed records only (records = ok + failed,
 * unknown 0) and a session's records, ok and failed (unknown = the rest). Changes `data` in place; anything
 * that is no such entry is left for the schema to refuse.
 */
export function withOutcomeCounts(data: unknown): unknown {
  if (!isObject(data) || !isObject(data['summary'])) return data;
  const { tools, sessions } = data['summary'];
  for (const entry of entriesOf(tools)) {
    if (!counted(entry['ok']) || !counted(entry['failed'])) continue;
    if (entry['records'] === undefined && entry['unknown'] === undefined) {
      entry['records'] = entry['ok'] + entry['failed'];
      entry['unknown'] = 0;
    }
  }
  for (const entry of entriesOf(sessions)) {
    const { records, ok, failed } = entry;
    if (entry['unknown'] === undefined && counted(records) && counted(ok) && counted(failed) && records >= ok + failed) entry['unknown'] = records - ok - failed;
  }
  return data;
}

function entriesOf(map: unknown): Record<string, unknown>[] {
  return isObject(map) ? Object.values(map).filter(isObject) : [];
}

function counted(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

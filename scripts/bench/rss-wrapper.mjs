#!/usr/bin/env node
// Fallback peak-RSS probe, used when /usr/bin/time (GNU time, `-f %M`) is not available.
//
//   node scripts/bench/rss-wrapper.mjs <result.json> <script.js> [args...]
//   node scripts/bench/rss-wrapper.mjs <result.json> -e <code>
//
// Node's spawnSync() gives no resource usage of the child (there is no getrusage(RUSAGE_CHILDREN)
// in Node), so instead of spawning the target this wrapper *becomes* it: it sets process.argv to
// what the target would see, imports it in this same process, and on 'exit' writes
// { maxRssKiB, cpuMs, exitCode } to <result.json>: process.resourceUsage()'s maxRSS, the high-water
// mark of the whole process (worker threads included) in KiB, and its user + system CPU time. The price is one extra
// small module load, which the wall times measured this way include.
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [resultFile, target, ...rest] = process.argv.slice(2);
if (resultFile === undefined || target === undefined) {
  process.stderr.write('usage: node scripts/bench/rss-wrapper.mjs <result.json> <script.js|-e code> [args...]\n');
  process.exit(2);
}

process.on('exit', (code) => {
  const usage = process.resourceUsage();
  writeFileSync(resultFile, JSON.stringify({ maxRssKiB: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, exitCode: code }) + '\n');
});

if (target === '-e') {
  process.argv = [process.argv[0]];
  await import(`data:text/javascript,${encodeURIComponent(rest[0] ?? '')}`);
} else {
  const script = resolve(target);
  process.argv = [process.argv[0], script, ...rest];
  await import(pathToFileURL(script).href);
}

#!/usr/bin/env node
// The scanner (src/framing/scan.ts, built into dist/) against what the floor does per line, on the
// same bytes in one process: bytes -> scan with the envelope plan, and bytes -> decode -> JSON.parse.
// Two corpora are made in memory with generate.mjs's envelope generator: the bench's bare corpus
// (1M lines, as `npm run bench` makes it), and one of 100k lines whose `query` results are UIA
// trees of 20-200 nodes (the lines where `result` is most of the bytes; a million of them would not
// fit one Buffer). The passes alternate, so that a change in the machine's load falls on both; each
// path's median pass is reported, in wall time and in this process's CPU time (what a loaded
// machine distorts less).
//
//   npm run build --silent && node scripts/bench/scan-vs-parse.mjs [--lines N] [--tree-lines N] [--rounds R]
import { createEnvelopeGenerator, mulberry32 } from './generate.mjs';

const root = new URL('../../', import.meta.url);
const { scan } = await import(new URL('dist/framing/scan.js', root).href);
const { envelopePlan } = await import(new URL('dist/checks/record-plan.js', root).href);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const lineCount = option('--lines', 1_000_000);
const treeLineCount = option('--tree-lines', 100_000);
const rounds = option('--rounds', 3);

/** A UIA tree of `n` elements, as MCEC's query returns one (nested children, bounds, names). */
function uiaTree(rand, n) {
  const types = ['Window', 'Pane', 'Button', 'Edit', 'Text', 'List', 'ListItem', 'MenuItem', 'TreeItem', 'Document', 'ToolBar', 'CheckBox'];
  const names = ['Save', 'Cancel', 'File', 'Edit', 'View', 'Search', 'Address and search bar', 'Text editor', 'Documents', 'Status bar', 'Close', 'Minimize', 'Font size'];
  let made = 0;
  const node = (depth) => {
    made++;
    const controlType = types[Math.floor(rand() * types.length)];
    const element = {
      name: names[Math.floor(rand() * names.length)],
      controlType,
      automationId: rand() < 0.5 ? `${controlType.toLowerCase()}${made}` : '',
      className: rand() < 0.3 ? 'Chrome_RenderWidgetHostHWND' : '',
      isEnabled: rand() < 0.95,
      isOffscreen: rand() < 0.1,
      bounds: { x: Math.floor(rand() * 1900), y: Math.floor(rand() * 1000), width: Math.floor(rand() * 600), height: Math.floor(rand() * 400) },
    };
    if (depth < 6 && made < n) {
      const children = [];
      const want = 1 + Math.floor(rand() * 5);
      for (let k = 0; k < want && made < n; k++) children.push(node(depth + 1));
      element.children = children;
    }
    return element;
  };
  const rootNode = node(0);
  while (made < n) (rootNode.children ??= []).push(node(1));
  return rootNode;
}

function corpus(name, withTrees, lineCount) {
  const next = createEnvelopeGenerator(0x5eed0001);
  const rand = mulberry32(0x5eed00aa);
  const parts = [];
  for (let k = 0; k < lineCount; k++) {
    const { envelope, tool } = next();
    if (withTrees && tool === 'query' && envelope.result) envelope.result = { window: envelope.result.window, tree: uiaTree(rand, 20 + Math.floor(rand() * 181)), truncated: false };
    parts.push(JSON.stringify(envelope));
  }
  const bytes = Buffer.from(parts.join('\n') + '\n');
  return { name, bytes };
}

function byScan(bytes, plan) {
  let accepted = 0;
  for (let start = 0, nl; (nl = bytes.indexOf(10, start)) !== -1; start = nl + 1) if (scan(bytes, start, nl, plan).ok) accepted++;
  return accepted;
}

function byParse(bytes) {
  let accepted = 0;
  for (let start = 0, nl; (nl = bytes.indexOf(10, start)) !== -1; start = nl + 1) {
    try {
      JSON.parse(bytes.toString('utf8', start, nl));
      accepted++;
    } catch {}
  }
  return accepted;
}

function byDecode(bytes) {
  let units = 0;
  for (let start = 0, nl; (nl = bytes.indexOf(10, start)) !== -1; start = nl + 1) units += bytes.toString('utf8', start, nl).length;
  return units;
}

function timed(run) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const count = run();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, count };
}

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

const plan = envelopePlan({ lastObservation: 'type' });
for (const [name, withTrees, lines] of [['bare (generate.mjs)', false, lineCount], ['UIA trees in query results', true, treeLineCount]]) {
  const { bytes } = corpus(name, withTrees, lines);
  const times = { scan: [], parse: [], decode: [] };
  const cpu = { scan: [], parse: [] };
  // Warmed up first, on a part, so that no path's first pass pays for its compilation.
  const part = bytes.subarray(0, bytes.indexOf(10, Math.min(bytes.length - 1, 8_000_000)) + 1);
  byScan(part, plan);
  byParse(part);
  byDecode(part);
  let counts;
  for (let r = 0; r < rounds; r++) {
    const s = timed(() => byScan(bytes, plan));
    const p = timed(() => byParse(bytes));
    const d = timed(() => byDecode(bytes));
    times.scan.push(s.ms);
    times.parse.push(p.ms);
    times.decode.push(d.ms);
    cpu.scan.push(s.cpuMs);
    cpu.parse.push(p.cpuMs);
    counts = { scan: s.count, parse: p.count };
  }
  if (counts.scan !== counts.parse) throw new Error(`the scanner accepted ${counts.scan} lines, JSON.parse ${counts.parse}`);
  const [scanMs, parseMs, decodeMs] = [median(times.scan), median(times.parse), median(times.decode)];
  const line = {
    corpus: name,
    lines,
    mb: +(bytes.length / 1e6).toFixed(1),
    rounds,
    scanMs: Math.round(scanMs),
    decodeParseMs: Math.round(parseMs),
    decodeOnlyMs: Math.round(decodeMs),
    scanOverParse: +(scanMs / parseMs).toFixed(3),
    scanCpuMs: Math.round(median(cpu.scan)),
    decodeParseCpuMs: Math.round(median(cpu.parse)),
    scanOverParseCpu: +(median(cpu.scan) / median(cpu.parse)).toFixed(3),
  };
  process.stdout.write(JSON.stringify(line) + '\n');
}

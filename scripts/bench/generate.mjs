// Seeded, deterministic benchmark corpora (no dependencies). The same seed always gives the same
// bytes, so every corpus of one kind is a prefix of a bigger one (bare-1m is the first million
// lines of bare-4m). Bump GENERATOR_VERSION whenever the output changes: corpora recorded in
// .bench/manifest.json with another version are generated again.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const GENERATOR_VERSION = 1;

/** mulberry32: a tiny 32-bit PRNG, good enough for test data. Returns floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

const apps = [
  ['Untitled - Notepad', 'notepad.exe', 'Notepad'],
  ['quarterly-report.docx - Word', 'WINWORD.EXE', 'OpusApp'],
  ['Inbox - alex@contoso.com - Outlook', 'OUTLOOK.EXE', 'rctrl_renwnd32'],
  ['Calculator', 'CalculatorApp.exe', 'ApplicationFrameWindow'],
  ['Settings', 'SystemSettings.exe', 'ApplicationFrameWindow'],
  ['Task Manager', 'Taskmgr.exe', 'TaskManagerWindow'],
  ['bench.mjs - mcec-result - Visual Studio Code', 'Code.exe', 'Chrome_WidgetWin_1'],
  ['Command Prompt', 'cmd.exe', 'ConsoleWindowClass'],
  ['Downloads - File Explorer', 'explorer.exe', 'CabinetWClass'],
  ['Save As', 'notepad.exe', '#32770'],
  ['New tab - Microsoft Edge', 'msedge.exe', 'Chrome_WidgetWin_1'],
  ['Untitled - Paint', 'mspaint.exe', 'MSPaintApp'],
  ['Budget 2026.xlsx - Excel', 'EXCEL.EXE', 'XLMAIN'],
  ['Remote Desktop Connection', 'mstsc.exe', '#32770'],
];

const elements = [
  ['Save', 'Button'], ['Cancel', 'Button'], ['OK', 'Button'], ["Don't Save", 'Button'], ['File', 'MenuItem'],
  ['Edit', 'MenuItem'], ['View', 'MenuItem'], ['Help', 'MenuItem'], ['Close', 'Button'], ['Minimize', 'Button'],
  ['Search', 'Edit'], ['Address and search bar', 'Edit'], ['Text editor', 'Document'], ['Open', 'SplitButton'],
  ['New tab', 'TabItem'], ['Submit', 'Button'], ['User name', 'Edit'], ['Password', 'Edit'], ['Apply', 'Button'],
  ['Next', 'Button'], ['Remember me', 'CheckBox'], ['Font size', 'ComboBox'], ['Status bar', 'StatusBar'],
  ['Documents', 'TreeItem'], ['report-final.pdf', 'ListItem'], ['Privacy statement', 'Hyperlink'],
];

const tools = ['capture', 'query', 'find', 'wait-for', 'invoke', 'send_command'];
const toolWeights = [25, 15, 25, 10, 20, 5];

const conditions = ['window-visible', 'element-enabled', 'element-exists', 'text-contains', 'window-closed', 'idle'];
const actions = ['click', 'double-click', 'set-value', 'toggle', 'expand', 'select', 'invoke'];
const commands = ['dir C:\\Users\\alex\\Documents', 'Get-Process notepad', 'ipconfig /all', 'whoami', 'echo %PATH%', 'tasklist /fi "imagename eq msedge.exe"'];

// [category, code, weight, tools (undefined: any)], real categories and codes of spec section 2.
const failures = [
  ['timeout', 'wait-condition-timeout', 20, ['wait-for', 'find', 'invoke']],
  ['no-target', 'window-not-found', 16],
  ['no-target', 'element-not-found', 16, ['find', 'invoke', 'query']],
  ['ambiguous-selector', 'selector-matched-N', 11, ['find', 'invoke']],
  ['stale-element', 'element-stale', 6, ['invoke', 'find']],
  ['stale-element', 'window-closed', 4],
  ['invalid-argument', 'region-out-of-bounds', 3, ['capture']],
  ['invalid-argument', 'region-too-large', 1, ['capture']],
  ['invalid-argument', 'bad-arguments', 3],
  ['invalid-argument', 'action-unknown', 2, ['invoke']],
  ['invalid-argument', 'unknown-session', 1],
  ['invalid-argument', 'unknown-command', 1, ['send_command']],
  ['capture-blank', 'frame-all-black', 3, ['capture']],
  ['capture-blank', 'frame-mostly-blank', 2, ['capture']],
  ['capture-blank', 'frame-uniform', 1, ['capture']],
  ['focus', 'set-focus-failed', 3, ['invoke']],
  ['focus', 'focus-not-confirmed', 1, ['invoke']],
  ['elevation', 'target-elevated', 2],
  ['foreground', 'set-foreground-denied', 3, ['capture', 'invoke']],
  ['foreground', 'foreground-not-set', 1, ['capture', 'invoke']],
  ['internal', 'unhandled-exception', 1],
  ['internal', 'uia-faulted', 1, ['query', 'find', 'invoke']],
  ['internal', 'send-command-timeout', 1, ['send_command']],
  ['internal', 'consent-denied', 1, ['send_command']],
  ['internal', 'capture-exception', 1, ['capture']],
];

const warningKinds = [
  ['minimized-window', 'The target window was minimized; it was restored before the call'],
  ['tree-truncated', 'The UIA tree was cut at depth 6 (1,500 elements); narrow the query'],
  ['region-clamped', 'The region was clamped to the window bounds'],
  ['capture-blank', 'The frame looks mostly blank; the window may be covered'],
  ['capture-fallback', 'Windows.Graphics.Capture failed; fell back to BitBlt'],
  ['ocr-fallback', 'The OCR engine was unavailable; fell back to UIA text'],
];

const typos = ['window-not-fonud', 'element-not-foudn', 'wait-condtion-timeout', 'selector-matched-many', 'elemnt-stale', 'set-focus-faild', 'frame-all-blak', 'Window_Not_Found'];
const badCategories = ['not-found', 'timed-out', 'NoTarget', 'ambiguous'];
const extraProperties = [['elapsedMs', 412], ['timestamp', '2026-07-01T10:15:02.123Z'], ['tool', 'find'], ['status', 'done']];

// ---------------------------------------------------------------------------------------------
// Envelopes

function weighted(entries, weightOf) {
  const total = entries.reduce((sum, e) => sum + weightOf(e), 0);
  return (r) => {
    let x = r * total;
    for (const e of entries) {
      x -= weightOf(e);
      if (x < 0) return e;
    }
    return entries[entries.length - 1];
  };
}

const pickTool = weighted(tools.map((t, i) => [t, toolWeights[i]]), (e) => e[1]);
const pickFailure = weighted(failures, (e) => e[2]);

/**
 * One envelope after another from one seed: { envelope, kind: 'ok'|'failed'|'invalid', invalid?, tool, args }.
 * About 70 % ok, 25 % failed (some with warnings), 5 % invalid.
 */
export function createEnvelopeGenerator(seed) {
  const rand = mulberry32(seed);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const hex = (n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += '0123456789abcdef'[Math.floor(rand() * 16)];
    return s;
  };
  const sessions = Array.from({ length: 64 }, () => hex(12));
  let session = sessions[0];
  let clock = Date.UTC(2026, 6, 1, 8, 0, 0);
  let shot = 0;

  const windowOf = (app) => ({ title: app[0], processName: app[1], className: app[2], handle: `0x${hex(8).toUpperCase()}` });
  const bounds = () => ({ x: int(0, 1800), y: int(0, 1000), width: int(16, 640), height: int(16, 480) });
  const elementOf = ([name, controlType]) => ({
    name,
    controlType,
    automationId: rand() < 0.6 ? `${controlType.toLowerCase()}${name.replace(/[^A-Za-z]/g, '')}` : '',
    isEnabled: rand() < 0.95,
    bounds: bounds(),
  });
  const artifact = () => `evidence/${session}/shots/${String(++shot).padStart(6, '0')}.png`;

  function result(tool, app) {
    switch (tool) {
      case 'capture':
        return { artifact: artifact(), width: pick([1280, 1920, 2560, 800]), height: pick([720, 1080, 1440, 600]), bytes: int(20_000, 900_000), format: 'png', window: { title: app[0], processName: app[1], handle: `0x${hex(8).toUpperCase()}` }, elapsedMs: int(40, 900) };
      case 'query': {
        const n = int(1, 3);
        return { window: windowOf(app), elements: Array.from({ length: n }, () => { const e = pick(elements); return { name: e[0], controlType: e[1], bounds: bounds() }; }), truncated: false };
      }
      case 'find':
        return { element: elementOf(pick(elements)), matches: 1, window: { title: app[0], processName: app[1] }, elapsedMs: int(5, 1500) };
      case 'wait-for':
        return { condition: pick(conditions), satisfied: true, waitedMs: int(0, 5000), window: { title: app[0], processName: app[1] } };
      case 'invoke': {
        const e = pick(elements);
        return { action: pick(actions), target: { name: e[0], controlType: e[1], automationId: `${e[1].toLowerCase()}${e[0].replace(/[^A-Za-z]/g, '')}` }, window: { title: app[0], processName: app[1] }, elapsedMs: int(5, 900) };
      }
      default:
        return { command: pick(commands), exitCode: rand() < 0.9 ? 0 : 1, output: `${int(1, 40)} line(s) of output`, elapsedMs: int(10, 4000) };
    }
  }

  function args(tool, app) {
    switch (tool) {
      case 'capture':
        return { window: { processName: app[1].replace(/\.exe$/i, '') }, format: 'png' };
      case 'query':
        return { window: { title: app[0] }, depth: int(1, 6) };
      case 'find': {
        const e = pick(elements);
        return { selector: { name: e[0], controlType: e[1] } };
      }
      case 'wait-for':
        return { condition: pick(conditions), window: { processName: app[1].replace(/\.exe$/i, '') }, timeoutMs: pick([1000, 5000, 10000, 30000]) };
      case 'invoke':
        return { selector: { automationId: `button${pick(elements)[0].replace(/[^A-Za-z]/g, '')}` }, action: pick(actions) };
      default:
        return { command: pick(commands) };
    }
  }

  function detail(code, app) {
    const e = pick(elements);
    switch (code) {
      case 'wait-condition-timeout': return `Condition ${pick(conditions)} was not met within ${pick([1000, 5000, 10000])} ms for "${app[0]}"`;
      case 'window-not-found': return `No window matched processName=${app[1].replace(/\.exe$/i, '')}`;
      case 'element-not-found': return `No element matched name="${e[0]}" controlType=${e[1]} in "${app[0]}"`;
      case 'element-stale': return `The element "${e[0]}" resolved earlier is no longer in the tree; find it again`;
      case 'window-closed': return `The window "${app[0]}" was closed before the call completed`;
      default:
        if (code.startsWith('selector-matched-')) return `Selector name="${e[0]}" matched ${code.slice(17)} elements; add automationId, className or processName`;
        return `${code.replace(/-/g, ' ')} while handling "${app[0]}" (${e[1]} "${e[0]}")`;
    }
  }

  function lastObservation(app) {
    const r = rand();
    if (r < 0.15) return undefined;
    if (r < 0.2) return null;
    return { window: { title: app[0], processName: app[1] }, capturedAt: new Date(clock - int(100, 9000)).toISOString(), artifact: artifact() };
  }

  function warnings(share) {
    if (rand() >= share) return undefined;
    const n = rand() < 0.8 ? 1 : 2;
    return Array.from({ length: n }, () => { const [code, text] = pick(warningKinds); return { code, detail: text }; });
  }

  function failure(tool, app, code) {
    let entry;
    do entry = pickFailure(rand());
    while (entry[3] !== undefined && !entry[3].includes(tool));
    const realCode = entry[1] === 'selector-matched-N' ? `selector-matched-${int(2, 6)}` : entry[1];
    const error = { code: code ?? realCode, category: entry[0], detail: detail(realCode, app) };
    const observed = lastObservation(app);
    if (observed !== undefined) error.lastObservation = observed;
    if (entry[0] === 'capture-blank' && rand() < 0.7) error.partialResult = { artifact: artifact(), meanLuma: Math.round(rand() * 300) / 100 };
    return error;
  }

  return function next() {
    clock += int(50, 2500);
    if (rand() < 0.002) session = pick(sessions);
    const tool = pickTool(rand())[0];
    const app = pick(apps);
    const r = rand();
    let envelope;
    let kind;
    let invalid;
    if (r < 0.7) {
      kind = 'ok';
      envelope = { ok: true, result: result(tool, app) };
      const w = warnings(0.1);
      if (w) envelope.warnings = w;
      envelope.sessionId = session;
    } else if (r < 0.95) {
      kind = 'failed';
      envelope = { ok: false, error: failure(tool, app) };
      const w = warnings(0.08);
      if (w) envelope.warnings = w;
      envelope.sessionId = session;
    } else {
      kind = 'invalid';
      const v = rand();
      if (v < 0.3) {
        invalid = 'ok-false-without-error';
        envelope = rand() < 0.5 ? { ok: false, sessionId: session } : { ok: false, result: null, sessionId: session };
      } else if (v < 0.6) {
        invalid = 'unknown-code';
        envelope = { ok: false, error: failure(tool, app, pick(typos)), sessionId: session };
      } else if (v < 0.78) {
        invalid = 'ok-true-with-error';
        envelope = { ok: true, result: result(tool, app), error: failure(tool, app), sessionId: session };
      } else if (v < 0.93) {
        invalid = 'extra-property';
        const [name, value] = pick(extraProperties);
        envelope = { ok: true, result: result(tool, app), sessionId: session, [name]: value };
      } else if (v < 0.97) {
        invalid = 'bad-category';
        const error = failure(tool, app);
        error.category = pick(badCategories);
        envelope = { ok: false, error, sessionId: session };
      } else {
        invalid = 'result-on-failure';
        envelope = { ok: false, result: result(tool, app), error: failure(tool, app), sessionId: session };
      }
    }
    return { envelope, kind, invalid, tool, app, args: () => args(tool, app), time: clock };
  };
}

// ---------------------------------------------------------------------------------------------
// Writers

class ChunkWriter {
  constructor(path) {
    this.fd = openSync(path, 'w');
    this.parts = [];
    this.size = 0;
    this.bytes = 0;
  }
  write(text) {
    this.parts.push(text);
    this.size += text.length;
    if (this.size > 4 * 1024 * 1024) this.flush();
  }
  flush() {
    if (this.parts.length === 0) return;
    const buffer = Buffer.from(this.parts.join(''), 'utf8');
    writeSync(this.fd, buffer);
    this.bytes += buffer.length;
    this.parts = [];
    this.size = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
    return this.bytes;
  }
}

const SEED_BARE = 0x5eed0001;
const SEED_TRANSCRIPT = 0x5eed0002;
const SEED_SMALL = 0x5eed0003;
const SEED_ONE = 0x5eed0004;
const SEED_CALLS = 0x5eed0005;
const SEED_UIA = 0x5eed0006;

function writeBare(path, count, seed) {
  const next = createEnvelopeGenerator(seed);
  const out = new ChunkWriter(path);
  const kinds = { ok: 0, failed: 0, invalid: 0 };
  for (let i = 0; i < count; i++) {
    const g = next();
    kinds[g.kind]++;
    out.write(JSON.stringify(g.envelope) + '\n');
  }
  return { lines: count, records: count, kinds, bytes: out.close() };
}

/**
 * Records of a UI-automation agent, heavy in what the schema reads least: 68 % successes whose
 * `result` is a UIA tree of 20-200 nodes, 27 % failures, 5 % schema-invalid records (the envelope
 * generator's own, drawn until one of the wanted kind comes).
 */
function writeUia(path, count, seed) {
  const next = createEnvelopeGenerator(seed);
  const rand = mulberry32(seed ^ 0x0a11);
  const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const out = new ChunkWriter(path);
  const kinds = { ok: 0, failed: 0, invalid: 0 };
  const node = (budget) => {
    const [name, controlType] = pick(elements);
    const element = { name, controlType, automationId: `${controlType.toLowerCase()}${int(1, 999)}`, isEnabled: rand() < 0.95, bounds: { x: int(0, 1800), y: int(0, 1000), width: int(16, 640), height: int(16, 480) } };
    budget.left--;
    const children = [];
    while (budget.left > 0 && children.length < 8 && rand() < 0.75) children.push(node(budget));
    if (children.length > 0) element.children = children;
    return element;
  };
  for (let i = 0; i < count; i++) {
    const r = rand();
    const want = r < 0.05 ? 'invalid' : r < 0.32 ? 'failed' : 'ok';
    let g = next();
    while (g.kind !== want) g = next();
    kinds[g.kind]++;
    if (g.kind === 'ok') {
      const budget = { left: int(20, 200) };
      const roots = [];
      while (budget.left > 0) roots.push(node(budget));
      g.envelope.result = { window: { title: g.app[0], processName: g.app[1] }, tree: roots, truncated: false };
    }
    out.write(JSON.stringify(g.envelope) + '\n');
  }
  return { lines: count, records: count, kinds, bytes: out.close() };
}

function writeTranscript(path, pairs, seed) {
  const next = createEnvelopeGenerator(seed);
  const sessionId = 'a7c3e91f04b2';
  const out = new ChunkWriter(path);
  const kinds = { ok: 0, failed: 0, invalid: 0 };
  for (let id = 1; id <= pairs; id++) {
    const g = next();
    kinds[g.kind]++;
    const envelope = g.envelope;
    if ('sessionId' in envelope) envelope.sessionId = sessionId;
    const request = {
      ts: new Date(g.time).toISOString(),
      sessionId,
      direction: 'request',
      method: 'tools/call',
      payload: { jsonrpc: '2.0', id, method: 'tools/call', params: { name: g.tool, arguments: g.args() } },
    };
    const content = [];
    if (g.tool === 'capture' && envelope.ok === true) content.push({ type: 'image', data: '<redacted base64>', mimeType: 'image/png' });
    content.push({ type: 'text', text: JSON.stringify(envelope) });
    const response = {
      ts: new Date(g.time + 40 + (id % 977)).toISOString(),
      sessionId,
      direction: 'response',
      method: 'tools/call',
      payload: { jsonrpc: '2.0', id, result: { content, isError: envelope.ok !== true } },
    };
    out.write(JSON.stringify(request) + '\n' + JSON.stringify(response) + '\n');
  }
  return { lines: pairs * 2, records: pairs, skipped: pairs, kinds, bytes: out.close() };
}

function writeSmall(dir, files, seed) {
  const next = createEnvelopeGenerator(seed);
  const rand = mulberry32(seed ^ 0xabcdef);
  mkdirSync(dir, { recursive: true });
  let records = 0;
  let bytes = 0;
  for (let i = 1; i <= files; i++) {
    let value;
    if (rand() < 0.8) {
      value = next().envelope;
      records++;
    } else {
      const n = 2 + Math.floor(rand() * 3);
      value = Array.from({ length: n }, () => next().envelope);
      records += n;
    }
    const text = (rand() < 0.3 ? JSON.stringify(value, null, 2) : JSON.stringify(value)) + '\n';
    const buffer = Buffer.from(text, 'utf8');
    writeFileSync(join(dir, `result-${String(i).padStart(5, '0')}.json`), buffer);
    bytes += buffer.length;
  }
  return { files, lines: records, records, bytes };
}

// ---------------------------------------------------------------------------------------------
// Agent calls (spec section 9): what an agent sends after each result, with MCEC's own argument
// names (ToolCatalog), so that retries, changed arguments and other tools follow failures.

function mcecArgs(tool, app, rand) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const target = rand() < 0.7 ? { process: app[1].replace(/\.exe$/i, '') } : { window: app[0] };
  const [name] = pick(elements);
  switch (tool) {
    case 'capture':
      return rand() < 0.9 ? target : { x: Math.floor(rand() * 1800), y: Math.floor(rand() * 1000), width: pick([640, 800, 1280, 20000]), height: pick([480, 600, 720, 12000]) };
    case 'query':
      return { ...target, maxDepth: pick([1, 2, 3, 6]) };
    case 'find':
      return { ...target, by: pick(['name', 'automationid']), value: name, timeout: pick([0, 0, 2000]) };
    case 'wait-for':
      return { ...target, by: 'name', value: name, timeout: pick([1000, 5000, 10000, 30000]) };
    case 'invoke':
      return { ...target, by: pick(['name', 'automationid']), value: name, action: pick(['invoke', 'toggle', 'expand', 'select', 'setfocus']) };
    default:
      return { command: pick(['alt-f4', 'ctrl-s', 'enter', 'chars:notes.txt', 'winr']) };
  }
}

/**
 * One call after another: { tool, args, envelope, kind }. After a failure the agent sends the same
 * call again a third of the time (and half of those fail again the same way, so streaks occur),
 * else it changes the arguments or picks another tool. A fifth of the calls are routed to one of
 * three MCEC sessions by arguments.sessionId.
 */
function createCallGenerator(seed) {
  const next = createEnvelopeGenerator(seed);
  const rand = mulberry32(seed ^ 0x9e3779b9);
  const routed = ['3e5a0c9b71d4', 'b80f2d6c4a19', '70c2e5d81fa6'];
  const defaultSession = 'e41b6f0a93c2';
  const last = new Map(); // route -> the previous call of that session
  return function call() {
    const route = rand() < 0.2 ? routed[Math.floor(rand() * routed.length)] : undefined;
    const prev = last.get(route);
    const g = next();
    let tool = g.tool;
    let args;
    let envelope = g.envelope;
    let kind = g.kind;
    if (prev !== undefined && prev.kind !== 'ok' && rand() < 0.35) {
      tool = prev.tool;
      args = prev.args;
      if (rand() < 0.5) {
        envelope = prev.envelope;
        kind = prev.kind;
      }
    } else {
      if (prev !== undefined && prev.kind !== 'ok' && rand() < 0.4) tool = prev.tool;
      args = mcecArgs(tool, g.app, rand);
      if (route !== undefined) args.sessionId = route;
    }
    if (envelope !== prev?.envelope && 'sessionId' in envelope) envelope.sessionId = route ?? defaultSession;
    const made = { tool, args, envelope, kind, time: g.time };
    last.set(route, made);
    return made;
  };
}

const contentOf = (tool, envelope) => {
  const content = [];
  if (tool === 'capture' && envelope.ok === true) content.push({ type: 'image', data: '<redacted base64>', mimeType: 'image/png' });
  content.push({ type: 'text', text: JSON.stringify(envelope) });
  return content;
};

/** MCEC's client (Invoke-McecTool): a {name, arguments} request line, then its response line. */
function writeMcecCalls(path, calls, seed) {
  const call = createCallGenerator(seed);
  const sessionId = '91c4e07a2d5b';
  const out = new ChunkWriter(path);
  const kinds = { ok: 0, failed: 0, invalid: 0 };
  let id = 3;
  for (let k = 0; k < calls; k++) {
    const c = call();
    kinds[c.kind]++;
    id += k % 17 === 0 ? 2 : 1;
    const ts = new Date(c.time).toISOString();
    const request = { ts, sessionId, direction: 'request', method: 'tools/call', payload: { name: c.tool, arguments: c.args } };
    const response = { ts, sessionId, direction: 'response', method: 'tools/call', payload: { jsonrpc: '2.0', id, result: { content: contentOf(c.tool, c.envelope), isError: c.envelope.ok !== true } } };
    out.write(JSON.stringify(request) + '\n' + JSON.stringify(response) + '\n');
  }
  return { lines: calls * 2, records: calls, skipped: calls, kinds, bytes: out.close() };
}

/**
 * A plain JSON-RPC capture: up to four calls in flight, answered in another order than sent; a
 * tenth of the calls never answered, one in a hundred answered by a JSON-RPC error.
 */
function writeJsonRpcCalls(path, calls, seed) {
  const call = createCallGenerator(seed);
  const rand = mulberry32(seed ^ 0x51ed270b);
  const out = new ChunkWriter(path);
  const kinds = { ok: 0, failed: 0, invalid: 0 };
  let records = 0;
  let lines = 0;
  let unanswered = 0;
  let errors = 0;
  const inFlight = [];
  const answer = (pending) => {
    lines++;
    if (pending.error) {
      errors++;
      out.write(JSON.stringify({ jsonrpc: '2.0', id: pending.id, error: { code: -32001, message: 'Request timed out' } }) + '\n');
      return;
    }
    records++;
    kinds[pending.c.kind]++;
    out.write(JSON.stringify({ jsonrpc: '2.0', id: pending.id, result: { content: contentOf(pending.c.tool, pending.c.envelope), isError: pending.c.envelope.ok !== true } }) + '\n');
  };
  for (let id = 1; id <= calls; id++) {
    const c = call();
    lines++;
    out.write(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: c.tool, arguments: c.args } }) + '\n');
    const r = rand();
    if (r < 0.1) unanswered++;
    else inFlight.push({ id, c, error: r < 0.11 });
    while (inFlight.length > 0 && (inFlight.length >= 4 || rand() < 0.6)) answer(inFlight.splice(Math.floor(rand() * inFlight.length), 1)[0]);
  }
  while (inFlight.length > 0) answer(inFlight.shift());
  return { lines, records, skipped: lines - records, unanswered, protocolErrors: errors, kinds, bytes: out.close() };
}

// ---------------------------------------------------------------------------------------------
// Corpora and the manifest

/** name -> { kind, path (relative to .bench), build(absPath) }; sizes depend on --quick/--memory. */
export function corpusSpec(name) {
  let m;
  if ((m = /^bare-(\d+)(k|m)\.jsonl$/.exec(name))) {
    const count = Number(m[1]) * (m[2] === 'k' ? 1_000 : 1_000_000);
    return { kind: 'bare', count, build: (path) => writeBare(path, count, SEED_BARE) };
  }
  if ((m = /^uia-(\d+)k\.jsonl$/.exec(name))) {
    const count = Number(m[1]) * 1_000;
    return { kind: 'uia', count, build: (path) => writeUia(path, count, SEED_UIA) };
  }
  if ((m = /^transcript-(\d+)k\.jsonl$/.exec(name))) {
    const pairs = Number(m[1]) * 1_000;
    return { kind: 'transcript', count: pairs, build: (path) => writeTranscript(path, pairs, SEED_TRANSCRIPT) };
  }
  if ((m = /^small-(\d+)k$/.exec(name))) {
    const files = Number(m[1]) * 1_000;
    return { kind: 'small', count: files, directory: true, build: (path) => writeSmall(path, files, SEED_SMALL) };
  }
  if ((m = /^(mcec|jsonrpc)-calls-(\d+)(k|m)\.jsonl$/.exec(name))) {
    const count = Number(m[2]) * (m[3] === 'k' ? 1_000 : 1_000_000);
    const write = m[1] === 'mcec' ? writeMcecCalls : writeJsonRpcCalls;
    return { kind: `${m[1]}-calls`, count, build: (path) => write(path, count, SEED_CALLS) };
  }
  if (name === 'one-small.jsonl') return { kind: 'bare', count: 10, build: (path) => writeBare(path, 10, SEED_ONE) };
  throw new Error(`unknown corpus ${name}`);
}

function readManifest(benchDir) {
  try {
    return JSON.parse(readFileSync(join(benchDir, 'manifest.json'), 'utf8'));
  } catch {
    return { corpora: {} };
  }
}

function isCurrent(entry, path, spec) {
  if (!entry || entry.generatorVersion !== GENERATOR_VERSION || !existsSync(path)) return false;
  if (spec.directory) return statSync(path).isDirectory();
  return statSync(path).size === entry.bytes;
}

/**
 * Makes sure each named corpus exists in benchDir with the current generator version.
 * Returns { corpora: name -> manifest entry (+ path, generated, ms) , generatedMs }.
 */
export function ensureCorpora(benchDir, names, log = () => {}) {
  mkdirSync(benchDir, { recursive: true });
  const manifest = readManifest(benchDir);
  manifest.corpora ??= {};
  const corpora = {};
  let generatedMs = 0;
  for (const name of names) {
    const spec = corpusSpec(name);
    const path = join(benchDir, name);
    const entry = manifest.corpora[name];
    if (isCurrent(entry, path, spec)) {
      corpora[name] = { ...entry, path, generated: false };
      continue;
    }
    log(`generating .bench/${name} ...`);
    const started = performance.now();
    const temp = `${path}.tmp`;
    rmSync(temp, { recursive: true, force: true });
    const info = spec.build(temp);
    rmSync(path, { recursive: true, force: true });
    renameSync(temp, path);
    const ms = Math.round(performance.now() - started);
    generatedMs += ms;
    manifest.corpora[name] = { generatorVersion: GENERATOR_VERSION, kind: spec.kind, ...info, generationMs: ms, generatedAt: new Date().toISOString() };
    writeFileSync(join(benchDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    log(`  ${info.lines.toLocaleString('en-US')} records, ${(info.bytes / 1e6).toFixed(1)} MB in ${(ms / 1000).toFixed(1)} s`);
    corpora[name] = { ...manifest.corpora[name], path, generated: true };
  }
  return { corpora, generatedMs };
}

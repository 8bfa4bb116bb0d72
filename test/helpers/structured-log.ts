// A .NET MCP server's own log as Serilog's CompactJsonFormatter writes it (CLEF: `@t`, `@mt`,
// `@l` only when not Information, `@x` for an exception, `@r` for formatted renderings, then the
// event's properties), one event a line: JSON that holds no tool result envelope. Deterministic, so
// that a test can say how many lines and findings it gives. The shapes are those of
// fixtures/field/structured-logs/serilog-clef.jsonl (see the README there).

const sessions = ['5f19c9c01a3f', 'a83e02d4b7c1', 'c03be5a1f7d2'];
const tools = ['capture', 'find', 'invoke', 'wait-for', 'get-text'];

/** The event of line `n` (0-based) at `time`, one of the server's recurring messages. */
function event(n: number, time: Date): Record<string, unknown> {
  const base = { '@t': time.toISOString().replace('Z', `${String(n % 10_000).padStart(4, '0')}Z`) };
  const session = sessions[n % sessions.length]!;
  const tool = tools[n % tools.length]!;
  const common = { SessionId: session, ProcessId: 4412, ThreadId: 9 + (n % 7) };
  switch (n % 8) {
    case 0:
      return { ...base, '@mt': 'Tool {Tool} called with {ArgumentCount} arguments', Tool: tool, ArgumentCount: 1 + (n % 3), ...common, SourceContext: 'MCEC.Commands.CommandInvoker' };
    case 1:
      return { ...base, '@mt': 'Captured {Width}x{Height} from window {Hwnd} in {Elapsed:0.0} ms', '@r': [((n % 500) + 0.25).toFixed(1)], Width: 1920, Height: 1080, Hwnd: `0x000A${(n % 4096).toString(16).toUpperCase().padStart(4, '0')}`, Elapsed: (n % 500) + 0.25, ...common, SourceContext: 'MCEC.Agent.ScreenCapture' };
    case 2:
      return { ...base, '@mt': 'UIA tree walked: {NodeCount} nodes, depth {Depth}, budget {Budget}', NodeCount: 200 + (n % 900), Depth: 4 + (n % 12), Budget: 2000, ...common, SourceContext: 'MCEC.Agent.UiaService' };
    case 3:
      return { ...base, '@mt': 'Selector {Selector} matched {MatchCount} elements', '@l': 'Warning', Selector: `name=Item ${n % 40}`, MatchCount: 2 + (n % 4), ...common, SourceContext: 'MCEC.Agent.UiaService' };
    case 4:
      return { ...base, '@mt': 'HTTP {RequestMethod} {RequestPath} responded {StatusCode} in {Elapsed:0.0000} ms', '@r': [((n % 90) + 0.5).toFixed(4)], RequestMethod: 'POST', RequestPath: '/mcp', StatusCode: 200, Elapsed: (n % 90) + 0.5, SourceContext: 'Serilog.AspNetCore.RequestLoggingMiddleware', RequestId: `0HN4SV7Q2R1LM:${String(n).padStart(8, '0')}`, ConnectionId: '0HN4SV7Q2R1LM', ProcessId: 4412, ThreadId: 15 };
    case 5:
      return { ...base, '@mt': 'Invoke of {AutomationId} failed', '@l': 'Error', '@x': 'System.Windows.Automation.ElementNotAvailableException: The element is not available.\r\n   at MCEC.Agent.UiaService.Invoke(UiaElementInfo element)', AutomationId: `btn${n % 50}`, ...common, SourceContext: 'MCEC.Agent.UiaService' };
    case 6:
      return { ...base, '@mt': 'Emergency stop hotkey re-armed', '@l': 'Debug', SourceContext: 'MCEC.Agent.EmergencyStopHotkey', ProcessId: 4412, ThreadId: 1 };
    default:
      return { ...base, '@mt': 'Session {SessionId} ended after {CallCount} calls', CallCount: n % 60, ...common, SourceContext: 'MCEC.Agent.AgentSession' };
  }
}

/** `count` lines of the server's log, one event a line, a second apart from 2026-07-01T08:15:00Z. */
export function serilogLines(count: number): string {
  const start = Date.UTC(2026, 6, 1, 8, 15, 0);
  let text = '';
  for (let n = 0; n < count; n++) text += `${JSON.stringify(event(n, new Date(start + n * 1000)))}\n`;
  return text;
}

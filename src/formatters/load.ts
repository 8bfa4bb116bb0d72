// The CLI's way to a formatter: each format is its own chunk of the CLI bundle, imported only when a
// run writes it (chalk comes with human, the rule catalog's texts with SARIF).
import type { FormatName, Formatter } from './names.js';

const loaders = {
  human: async () => (await import('./human.js')).formatHuman,
  json: async () => (await import('./json.js')).formatJson,
  ndjson: async () => (await import('./ndjson.js')).formatNdjson,
  sarif: async () => (await import('./sarif.js')).formatSarif,
  junit: async () => (await import('./junit.js')).formatJunit,
  github: async () => (await import('./github.js')).formatGithub,
  markdown: async () => (await import('./markdown.js')).formatMarkdown,
  html: async () => (await import('./html/index.js')).formatHtml,
} satisfies Record<FormatName, () => Promise<Formatter>>;

export function loadFormatter(name: FormatName): Promise<Formatter> {
  return loaders[name]();
}

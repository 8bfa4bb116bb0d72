// Build step of packaging: builds dist/ from nothing, so that a file the build no longer writes (an
// old dist/cli.js) never ships. package.json runs it as `prepack` (npm pack, npm publish) and as
// `prepare` (`npm install` in a clone, `npm link`, and `npm install <git url>`, which clones,
// installs the dependencies and prepares before it packs).
//
// `prepare` builds only where nothing else does: npm runs it also on `npm ci`, whose commands here
// (`npm test`, `npm start`, `npm run bench`) build first, and right after `prepack` on `npm pack` and
// `npm publish`.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const event = process.env.npm_lifecycle_event;
const command = process.env.npm_command;
if (event === 'prepare' && (command === 'ci' || command === 'pack' || command === 'publish')) process.exit(0);

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs npm: npm_execpath is the npm running this script; `npm` on PATH needs a shell (npm.cmd on Windows). */
function npm(args, env = process.env) {
  const npmCli = process.env.npm_execpath;
  if (npmCli) execFileSync(process.execPath, [npmCli, ...args], { cwd: root, stdio: 'inherit', env });
  else execFileSync('npm', args, { cwd: root, stdio: 'inherit', env, shell: true });
}

// `npm install --global <git url>` (pre-commit's node language installs a hook's repository so)
// prepares the clone with the global setting inherited, so the clone's dependencies are installed
// elsewhere and the build finds no compiler (npm/cli#8440). They are installed here then, into the
// clone, without their scripts (the nested install would prepare again).
if (!existsSync(fileURLToPath(new URL('../node_modules/typescript/package.json', import.meta.url)))) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_(global|location|prefix)$/i.test(name)));
  npm(['install', '--location=project', '--include=dev', '--ignore-scripts', '--no-save', '--no-audit', '--no-fund'], env);
}

rmSync(fileURLToPath(new URL('../dist', import.meta.url)), { recursive: true, force: true });
npm(['run', 'build', '--silent']);

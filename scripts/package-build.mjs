// Build step of packaging: builds dist/ from nothing, so that a file the build no longer writes (an
// old dist/cli.js) never ships. package.json runs it as `prepack` (npm pack, npm publish) and as
// `prepare` (`npm install` in a clone, `npm link`, and `npm install <git url>`, which clones,
// installs the dependencies and prepares before it packs).
//
// `prepare` builds only where nothing else does: npm runs it also on `npm ci`, whose commands here
// (`npm test`, `npm start`, `npm run bench`) build first, and right after `prepack` on `npm pack` and
// `npm publish`.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const event = process.env.npm_lifecycle_event;
const command = process.env.npm_command;
if (event === 'prepare' && (command === 'ci' || command === 'pack' || command === 'publish')) process.exit(0);

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(fileURLToPath(new URL('../dist', import.meta.url)), { recursive: true, force: true });
// npm_execpath is the npm that runs this script; a shell is needed only for an `npm` found on PATH
// (npm.cmd on Windows).
const npm = process.env.npm_execpath;
if (npm) execFileSync(process.execPath, [npm, 'run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
else execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit', shell: true });

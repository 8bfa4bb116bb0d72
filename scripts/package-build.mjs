// Build step of packaging: builds dist/ from nothing, so that a file the build no longer writes (an
// old dist/cli.js) never ships. package.json runs it as `prepack` (npm pack, npm publish) and as
// `prepare` (`npm install` in a clone, `npm link`, and `npm install <git url>`, which clones,
// installs the dependencies and prepares before it packs).
//
// `prepare` builds only where nothing else does: npm runs it also on `npm ci`, whose commands here
// (`npm test`, `npm start`, `npm run bench`) build first, and right after `prepack` on `npm pack` and
// `npm publish`. A git dependency is prepared twice in one clone: pacote runs `npm install` there,
// which runs `prepare`, then runs `prepare` itself before it packs. The second finds dist/ built from
// the same inputs (the digest below, kept in node_modules/.cache) and keeps it; `prepack` always builds.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
// clone, without their scripts (the nested install would prepare again): the dependencies the CLI
// bundles, at the lockfile's versions, and the three development ones the build runs with
// (`tsc --noCheck` reads no types but Node's), at package.json's. `--save-prod` keeps the three from
// being omitted as development ones; `--no-save` leaves package.json and the lockfile as they are.
// npm runs `prepare` with `npm_config_include=dev` set, which outweighs `--omit=dev`, so the nested
// npm does not inherit it.
const buildTools = ['typescript', 'esbuild', '@types/node'];
if (!existsSync(join(root, 'node_modules/typescript/package.json'))) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_config_(global|location|prefix|include)$/i.test(name)));
  const { devDependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const tools = buildTools.map((name) => `${name}@${devDependencies[name]}`);
  npm(['install', '--location=project', '--omit=dev', '--save-prod', '--no-save', '--ignore-scripts', '--no-audit', '--no-fund', ...tools], env);
}

/**
 * A digest of what the build reads: the sources, data and scripts, the locked dependencies it bundles,
 * and this Node, whose V8 the CLI's code cache is made for.
 */
function inputsDigest() {
  const hash = createHash('sha256').update(process.version);
  const add = (path) => {
    if (!existsSync(join(root, path))) return;
    if (statSync(join(root, path)).isDirectory()) for (const name of readdirSync(join(root, path)).sort()) add(join(path, name));
    else hash.update(`\0${path}\0`).update(readFileSync(join(root, path)));
  };
  for (const path of ['bin', 'data', 'schemas', 'scripts', 'src', 'package.json', 'package-lock.json', 'tsconfig.json']) add(path);
  return hash.digest('hex');
}

const stamp = join(root, 'node_modules/.cache/mcec-result/build-inputs');
const digest = inputsDigest();
if (event === 'prepare' && existsSync(join(root, 'dist/cli/cli.cjs')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) process.exit(0);

rmSync(join(root, 'dist'), { recursive: true, force: true });
rmSync(stamp, { force: true });
npm(['run', 'build', '--silent']);
if (event === 'prepare') {
  mkdirSync(join(root, 'node_modules/.cache/mcec-result'), { recursive: true });
  writeFileSync(stamp, digest);
}

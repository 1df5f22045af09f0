// `npm start`: builds what is missing or older than its sources, then runs the server in this
// process. A second start on an unchanged checkout builds nothing.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stopWithParent } from './stop-with-parent.mjs';

// Run by npm: the server ends with `npm start`. Run directly (node scripts/start.mjs, a service
// manager, nohup), it does not depend on its parent.
if (process.env.npm_lifecycle_event === 'start') stopWithParent();

const root = fileURLToPath(new URL('..', import.meta.url));
process.chdir(root);

function newestMtime(paths) {
  let newest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (entry !== 'node_modules') visit(join(path, entry));
    } else if (!/\.test\.tsx?$/.test(path)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  paths.forEach(visit);
  return newest;
}

function stale(output, sources) {
  return !existsSync(output) || statSync(output).mtimeMs < newestMtime(sources);
}

// A production install (`npm prune --omit=dev`) has no Vite or esbuild: it serves the build it was
// given, and says so when its sources look newer (a copy that did not keep file times).
const canBuild =
  existsSync(join(root, 'node_modules/vite')) && existsSync(join(root, 'node_modules/esbuild'));

function build(output, script, what) {
  if (canBuild) {
    console.log(`Building the ${what}…`);
    npm(script);
  } else if (existsSync(output)) {
    console.warn(
      `The ${what}'s sources look newer than ${output}; this install has no development packages to build with, so it serves the build it has.`,
    );
  } else {
    console.error(
      `${output} is missing and this install has no development packages to build it: run \`npm run build\` before \`npm prune --omit=dev\`.`,
    );
    process.exit(1);
  }
}

function npm(script) {
  const npmCli = process.env.npm_execpath;
  if (npmCli)
    execFileSync(process.execPath, [npmCli, 'run', '--silent', script], { stdio: 'inherit' });
  else execFileSync('npm', ['run', '--silent', script], { stdio: 'inherit' });
}

const shared = ['core', 'package.json'];
const servesClient = !['false', '0'].includes(process.env.SERVE_CLIENT ?? '');
if (servesClient && stale('dist/client/index.html', ['client', 'vite.config.ts', ...shared]))
  build('dist/client/index.html', 'build:client', 'client');
if (stale('dist/server/main.js', ['server', ...shared]))
  build('dist/server/main.js', 'build:server', 'server');
// Node keeps the compiled code of the server and its packages between starts (a fifth of a start).
module.enableCompileCache(join(root, 'node_modules/.cache/compile'));
await import(pathToFileURL(join(root, 'dist/server/main.js')).href);
